package io.troupe.testing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Parses the CLI's JSON output in tests: objects, arrays, strings, numbers (as Long or Double), booleans, null. */
public final class JsonReader
{
    private final String text;
    private int at;

    private JsonReader(final String text)
    {
        this.text = text;
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> object(final String text)
    {
        final JsonReader reader = new JsonReader(text.strip());
        final Object value = reader.value();
        if (reader.at != reader.text.length())
        {
            throw new IllegalArgumentException("trailing text at " + reader.at + ": " + text);
        }
        return (Map<String, Object>)value;
    }

    private Object value()
    {
        final char c = text.charAt(at);
        if (c == '{')
        {
            at++;
            final Map<String, Object> map = new LinkedHashMap<>();
            if (text.charAt(at) == '}')
            {
                at++;
                return map;
            }
            while (true)
            {
                final String key = (String)value();
                expect(':');
                map.put(key, value());
                if (text.charAt(at++) == '}')
                {
                    return map;
                }
            }
        }
        if (c == '[')
        {
            at++;
            final List<Object> list = new ArrayList<>();
            if (text.charAt(at) == ']')
            {
                at++;
                return list;
            }
            while (true)
            {
                list.add(value());
                if (text.charAt(at++) == ']')
                {
                    return list;
                }
            }
        }
        if (c == '"')
        {
            final StringBuilder out = new StringBuilder();
            at++;
            while (text.charAt(at) != '"')
            {
                char ch = text.charAt(at++);
                if (ch == '\\')
                {
                    ch = text.charAt(at++);
                    switch (ch)
                    {
                        case 'n' -> out.append('\n');
                        case 'r' -> out.append('\r');
                        case 't' -> out.append('\t');
                        case 'u' ->
                        {
                            out.append((char)Integer.parseInt(text.substring(at, at + 4), 16));
                            at += 4;
                        }
                        default -> out.append(ch);
                    }
                }
                else
                {
                    out.append(ch);
                }
            }
            at++;
            return out.toString();
        }
        for (final String word : new String[] {"true", "false", "null"})
        {
            if (text.startsWith(word, at))
            {
                at += word.length();
                return "null".equals(word) ? null : Boolean.valueOf(word);
            }
        }
        final int start = at;
        while (at < text.length() && "-+.eE0123456789".indexOf(text.charAt(at)) >= 0)
        {
            at++;
        }
        final String number = text.substring(start, at);
        if (number.isEmpty())
        {
            throw new IllegalArgumentException("unexpected '" + c + "' at " + start);
        }
        return number.matches("-?[0-9]+") ? (Object)Long.valueOf(number) : (Object)Double.valueOf(number);
    }

    private void expect(final char c)
    {
        if (text.charAt(at++) != c)
        {
            throw new IllegalArgumentException("expected '" + c + "' at " + (at - 1));
        }
    }
}
