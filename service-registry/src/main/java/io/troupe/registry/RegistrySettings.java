package io.troupe.registry;

import io.troupe.memquota.Setting;
import io.troupe.memquota.Setting.Kind;

import java.util.List;

/**
 * The service directory's settings a node's config file sets ({@code troupe.registry}), each declared once (see
 * {@link Setting}): {@link RegistryConfig} takes its defaults from here and its setters refuse a value out of these
 * bounds; the node's config reader, the reference config file and the configuration docs are made from {@link #ALL}.
 *
 * <p>{@code troupe.registry.replica} is read by the node itself: it becomes the config's replica directory, under
 * the node's data directory.
 */
public final class RegistrySettings
{
    private static final String OWNER = "registry";

    /** {@code troupe.registry.capacity}. */
    public static final Setting<RegistryConfig, Integer> CAPACITY =
        Setting.<RegistryConfig, Integer>builder(OWNER, "registry.capacity", "capacity", Kind.INTEGER, Integer.class,
            65_536, RegistryConfig::capacity, RegistryConfig::capacity)
        .range(1, 1 << 24)
        .doc("Most instances held, of this node and all others together. Registering beyond it fails; a peer's " +
            "entries beyond it are refused and counted.")
        .build();

    /** Every setting declared here, in the order of the reference file. */
    public static final List<Setting<RegistryConfig, ?>> ALL = List.of(CAPACITY);

    private RegistrySettings()
    {
    }
}
