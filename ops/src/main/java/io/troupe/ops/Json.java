package io.troupe.ops;

import java.util.List;
import java.util.Map;

/**
 * Writes the CLI's {@code --json} documents: maps (in their order), lists, strings, numbers, booleans and null, as
 * one line of JSON. Enough for the documents the commands print; not a general JSON library.
 */
final class Json
{
    private Json()
    {
    }

    static String write(final Object value)
    {
        final StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(final Object value, final StringBuilder out)
    {
        if (value == null)
        {
            out.append("null");
        }
        else if (value instanceof String text)
        {
            string(text, out);
        }
        else if (value instanceof Number || value instanceof Boolean)
        {
            out.append(value);
        }
        else if (value instanceof Map<?, ?> map)
        {
            out.append('{');
            boolean first = true;
            for (final Map.Entry<?, ?> entry : map.entrySet())
            {
                if (!first)
                {
                    out.append(',');
                }
                first = false;
                string(String.valueOf(entry.getKey()), out);
                out.append(':');
                write(entry.getValue(), out);
            }
            out.append('}');
        }
        else if (value instanceof List<?> list)
        {
            out.append('[');
            for (int i = 0; i < list.size(); i++)
            {
                if (i > 0)
                {
                    out.append(',');
                }
                write(list.get(i), out);
            }
            out.append(']');
        }
        else
        {
            string(value.toString(), out);
        }
    }

    private static void string(final String text, final StringBuilder out)
    {
        out.append('"');
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            switch (c)
            {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default ->
                {
                    if (c < 0x20)
                    {
                        out.append(String.format("\\u%04x", (int)c));
                    }
                    else
                    {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
