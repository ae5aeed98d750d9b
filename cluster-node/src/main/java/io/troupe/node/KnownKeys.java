package io.troupe.node;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Finds keys the node does not know, so that a typo ({@code troupe.bind.prot}) stops start-up instead of
 * leaving a setting at its default. Objects are walked against the reference config; the objects inside a
 * list (peers, pools) against the keys an element may have. A value where the reference has an object
 * ({@code troupe.bind = 40100}) is rejected here too, since its keys cannot be checked. Stateless.
 */
final class KnownKeys
{
    private KnownKeys()
    {
    }

    /**
     * Checks every key of a config against the reference.
     *
     * @param config      the resolved config (the reference's keys included).
     * @param reference   the reference config: every key it has is known.
     * @param elementKeys for each list of objects by key path, the keys its elements may have.
     * @param source      the config's source, for messages.
     * @return one problem per unknown key (naming it and the keys allowed beside it), in key order; empty if none.
     */
    static List<NodeConfigException> check(
        final ConfigObject config,
        final ConfigObject reference,
        final Map<String, Set<String>> elementKeys,
        final String source)
    {
        final List<NodeConfigException> problems = new ArrayList<>();
        walk(config, reference, "", elementKeys, source, problems);
        return problems;
    }

    private static void walk(
        final ConfigObject object,
        final ConfigObject reference,
        final String path,
        final Map<String, Set<String>> elementKeys,
        final String source,
        final List<NodeConfigException> problems)
    {
        for (final String key : new TreeSet<>(object.keySet()))
        {
            final String keyPath = path.isEmpty() ? key : path + '.' + key;
            final ConfigValue value = object.get(key);
            final ConfigValue known = reference.get(key);
            if (known == null)
            {
                problems.add(unknown(source, keyPath, value, path, reference.keySet()));
            }
            else if (known.valueType() == ConfigValueType.OBJECT)
            {
                if (value.valueType() != ConfigValueType.OBJECT)
                {
                    problems.add(ConfigReader.invalid(source, keyPath, value, "expected an object with the keys " +
                        String.join(", ", new TreeSet<>(((ConfigObject)known).keySet())), null));
                }
                else
                {
                    walk((ConfigObject)value, (ConfigObject)known, keyPath, elementKeys, source, problems);
                }
            }
            else if (elementKeys.containsKey(keyPath) && value.valueType() == ConfigValueType.LIST)
            {
                checkElements((ConfigList)value, keyPath, elementKeys.get(keyPath), source, problems);
            }
        }
    }

    private static void checkElements(
        final ConfigList list, final String path, final Set<String> allowed, final String source,
        final List<NodeConfigException> problems)
    {
        for (int i = 0; i < list.size(); i++)
        {
            final ConfigValue element = list.get(i);
            if (element.valueType() != ConfigValueType.OBJECT)
            {
                // The mapper reports a non-object element with what an element must look like.
                continue;
            }
            final String elementPath = path + '[' + i + ']';
            final ConfigObject object = (ConfigObject)element;
            for (final String key : new TreeSet<>(object.keySet()))
            {
                if (!allowed.contains(key))
                {
                    problems.add(unknown(source, elementPath + '.' + key, object.get(key), elementPath, allowed));
                }
            }
        }
    }

    private static NodeConfigException unknown(
        final String source, final String keyPath, final ConfigValue value, final String parentPath,
        final Set<String> allowed)
    {
        final String level = parentPath.isEmpty() ? "at the top level" : "in " + parentPath;
        return ConfigReader.invalid(source, keyPath, value,
            "not a known key; allowed " + level + ": " + String.join(", ", new TreeSet<>(allowed)), null);
    }
}
