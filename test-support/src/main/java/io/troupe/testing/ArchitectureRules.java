package io.troupe.testing;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.lang.SimpleConditionEvent;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The house rules every module's {@code ArchitectureTest} checks on its own (non-test) classes:
 * <ul>
 *   <li>no package cycles (each package is a slice);</li>
 *   <li>dependencies on other Troupe modules only in the direction of the module map ({@link Module}, as in the
 *       README and docs/architecture.md);</li>
 *   <li>no use of another module's {@code .internal} packages (a module's internals are for itself; the
 *       benchmarks, which measure internals, are the one exception and do not run these rules);</li>
 *   <li>library code writes nothing to {@code System.out} or {@code System.err} (it logs, or takes a stream from
 *       its caller); only a module's command-line entry points ({@link Module#entryPoints}) may;</li>
 *   <li>a public class of a module's API extends, implements and exposes (in its public or protected members) no
 *       type of an {@code .internal} package, its own module's included.</li>
 * </ul>
 */
public final class ArchitectureRules
{
    /** The modules and the modules each may depend on, directly or not (docs/architecture.md). */
    public enum Module
    {
        /** Memory quota. */
        MEMQUOTA("io.troupe.memquota"),
        /** The actor runtime. */
        ACTOR("io.troupe.actor", MEMQUOTA),
        /** The wire format; it sees the runtime's API. */
        SERIALIZATION("io.troupe.serialization", ACTOR, MEMQUOTA),
        /**
         * Brokers; they speak the wire format so that a broker serves other nodes (the original design had them
         * on the runtime only).
         */
        BROKER("io.troupe.broker", SERIALIZATION, ACTOR, MEMQUOTA),
        /** The transport between nodes. */
        INTERCONNECT("io.troupe.interconnect", SERIALIZATION, ACTOR, MEMQUOTA),
        /** The cluster-wide service directory, on the transport. */
        REGISTRY("io.troupe.registry", INTERCONNECT, SERIALIZATION, ACTOR, MEMQUOTA),
        /** The member table kept by Aeron Cluster; it proves the cluster secret as the transport does. */
        MEMBERSHIP("io.troupe.membership", INTERCONNECT, SERIALIZATION, ACTOR, MEMQUOTA),
        /**
         * The client library for processes outside the cluster: it speaks the transport's seal and reads the
         * registry's replica, so it stands on those (the original design had it on the wire format only).
         */
        CLIENT("io.troupe.client", REGISTRY, INTERCONNECT, SERIALIZATION, ACTOR, MEMQUOTA),
        /** The node: everything above, and the node command's entry points. */
        NODE("io.troupe.node", new String[] {"io.troupe.node.Main", "io.troupe.node.NodeCommand",
            "io.troupe.node.local.ClassCacheTraining"}, MEMBERSHIP,
            REGISTRY, INTERCONNECT, BROKER, SERIALIZATION, ACTOR, MEMQUOTA),
        /**
         * The {@code troupe} CLI: it reads the node's counters file and directory replica (their layouts are the
         * node's and the registry's), and speaks to a node as a client (the original design had it on the client
         * only).
         */
        OPS("io.troupe.ops", new String[] {"io.troupe.ops.TroupeCli"}, NODE, CLIENT, MEMBERSHIP, REGISTRY,
            INTERCONNECT, BROKER, SERIALIZATION, ACTOR, MEMQUOTA),
        /** The samples: programs with a main each, so they may print; the launcher dispatches to the CLI. */
        SAMPLES("io.troupe.samples", new String[] {"io.troupe.samples.."}, OPS, NODE, CLIENT, MEMBERSHIP, REGISTRY,
            INTERCONNECT, BROKER, SERIALIZATION, ACTOR, MEMQUOTA),
        /** The test toolbox: no Troupe module. */
        TESTING("io.troupe.testing");

        private final String basePackage;
        private final String[] entryPoints;
        private final Module[] allowed;

        Module(final String basePackage, final Module... allowed)
        {
            this(basePackage, new String[0], allowed);
        }

        Module(final String basePackage, final String[] entryPoints, final Module... allowed)
        {
            this.basePackage = basePackage;
            this.entryPoints = entryPoints;
            this.allowed = allowed;
        }

        /**
         * The package all of the module's classes live in or under.
         *
         * @return the package name.
         */
        public String basePackage()
        {
            return basePackage;
        }

        /**
         * Classes ({@code ..} for packages) that are command-line entry points and may use the standard streams.
         *
         * @return class names or package patterns.
         */
        public String[] entryPoints()
        {
            return entryPoints.clone();
        }

        /**
         * The modules this one may depend on.
         *
         * @return a new set.
         */
        public Set<Module> allowed()
        {
            final EnumSet<Module> set = EnumSet.noneOf(Module.class);
            set.addAll(Arrays.asList(allowed));
            return set;
        }
    }

    private ArchitectureRules()
    {
    }

    /**
     * The module's rules.
     *
     * @param module the module.
     * @return the rules, each to be checked against {@link #classesOf}.
     */
    public static List<ArchRule> of(final Module module)
    {
        final String own = module.basePackage + "..";
        final List<ArchRule> rules = new ArrayList<>();
        rules.add(slices().matching("io.troupe.(**)").should().beFreeOfCycles()
            .because("a package cycle makes internals public and every change ripple"));
        final List<String> forbidden = new ArrayList<>();
        for (final Module other : Module.values())
        {
            if (other != module && !module.allowed().contains(other))
            {
                forbidden.add(other.basePackage + "..");
            }
        }
        if (!forbidden.isEmpty())
        {
            rules.add(noClasses().that().resideInAPackage(own).should().dependOnClassesThat()
                .resideInAnyPackage(forbidden.toArray(new String[0]))
                .because("module dependencies point one way only (docs/architecture.md)"));
        }
        rules.add(noClasses().that().resideInAPackage(own).should().dependOnClassesThat(
            DescribedPredicate.describe("are in another module's .internal package",
                target -> isOthersInternal(module, target.getPackageName())))
            .because("a module's internals are its own; other modules use its API"));
        rules.add(classes().that().resideInAPackage(own).and().arePublic()
            .and(DescribedPredicate.describe("in the module's API (not .internal)",
                javaClass -> !isInternal(javaClass.getPackageName())))
            .should(exposeNoInternalType())
            .because("an API class that extends or hands out an internal type makes it API: users and other " +
                "modules come to depend on it")
            .allowEmptyShould(true));
        final DescribedPredicate<JavaClass> entryPoint = DescribedPredicate.describe("a command-line entry point",
            javaClass -> isEntryPoint(module, javaClass.getName(), javaClass.getPackageName()));
        rules.add(noClasses().that().resideInAPackage(own).and(DescribedPredicate.not(entryPoint))
            .should().accessField(System.class, "out").orShould().accessField(System.class, "err")
            .because("library code logs or writes to a stream its caller gives it")
            .allowEmptyShould(true)); // the samples are all entry points
        return rules;
    }

    private static ArchCondition<JavaClass> exposeNoInternalType()
    {
        return new ArchCondition<>("extend, implement or expose (public or protected members) no .internal type")
        {
            @Override
            public void check(final JavaClass item, final ConditionEvents events)
            {
                final List<String> leaks = new ArrayList<>();
                item.getRawSuperclass().filter(type -> isInternal(type.getPackageName()))
                    .ifPresent(type -> leaks.add(item.getName() + " extends " + type.getName()));
                for (final JavaClass type : item.getRawInterfaces())
                {
                    if (isInternal(type.getPackageName()))
                    {
                        leaks.add(item.getName() + " implements " + type.getName());
                    }
                }
                for (final JavaMember member : item.getMembers())
                {
                    if (!member.getModifiers().contains(JavaModifier.PUBLIC) &&
                        !member.getModifiers().contains(JavaModifier.PROTECTED))
                    {
                        continue;
                    }
                    final List<JavaClass> types = new ArrayList<>();
                    if (member instanceof JavaField field)
                    {
                        types.add(field.getRawType());
                    }
                    else if (member instanceof JavaCodeUnit unit)
                    {
                        types.add(unit.getRawReturnType());
                        types.addAll(unit.getRawParameterTypes());
                    }
                    for (final JavaClass type : types)
                    {
                        if (isInternal(type.getPackageName()))
                        {
                            leaks.add(member.getFullName() + " exposes " + type.getName());
                        }
                    }
                }
                for (final String leak : leaks)
                {
                    events.add(SimpleConditionEvent.violated(item, leak));
                }
            }
        };
    }

    private static boolean isInternal(final String packageName)
    {
        return packageName.startsWith("io.troupe.") &&
            (packageName.endsWith(".internal") || packageName.contains(".internal."));
    }

    private static boolean isOthersInternal(final Module module, final String packageName)
    {
        return packageName.startsWith("io.troupe.") && !isUnder(packageName, module.basePackage) &&
            (packageName.endsWith(".internal") || packageName.contains(".internal."));
    }

    private static boolean isEntryPoint(final Module module, final String className, final String packageName)
    {
        for (final String entry : module.entryPoints)
        {
            if (entry.endsWith("..") ? isUnder(packageName, entry.substring(0, entry.length() - 2)) :
                entry.equals(className))
            {
                return true;
            }
        }
        return false;
    }

    private static boolean isUnder(final String packageName, final String base)
    {
        return packageName.equals(base) || packageName.startsWith(base + ".");
    }

    /**
     * The module's own classes, without tests.
     *
     * @param module the module.
     * @return the classes.
     */
    public static JavaClasses classesOf(final Module module)
    {
        return new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(location -> !location.contains("-tests.jar"))
            .importPackages(module.basePackage);
    }

    /**
     * Checks every rule of the module on its classes, and reports every violation of every rule at once.
     *
     * @param module the module.
     * @throws AssertionError listing the violations.
     */
    public static void check(final Module module)
    {
        final JavaClasses classes = classesOf(module);
        if (classes.isEmpty())
        {
            throw new AssertionError("no classes of " + module + " found under " + module.basePackage);
        }
        final StringBuilder failures = new StringBuilder();
        for (final ArchRule rule : of(module))
        {
            final EvaluationResult result = rule.evaluate(classes);
            if (result.hasViolation())
            {
                failures.append(result.getFailureReport()).append(System.lineSeparator());
            }
        }
        if (failures.length() > 0)
        {
            throw new AssertionError(failures.toString());
        }
    }
}
