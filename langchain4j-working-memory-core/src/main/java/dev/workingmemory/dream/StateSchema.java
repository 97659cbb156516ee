package dev.workingmemory.dream;

import dev.workingmemory.internal.Ensure;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The sections of the state document, in order. The default is seed 000's seven-section schema (The Phenotype, The
 * Bond, The Niche, Active Context, Crystal Pointers, Curiosity Gaps, Emerging Skills); an application that is not a
 * companion drops or replaces sections:
 * <pre>{@code
 * StateSchema schema = StateSchema.defaults().toBuilder()
 *         .drop(StateSchema.NICHE)
 *         .replace(StateSchema.PHENOTYPE, "Product Context", "the product the user builds: its domain, users and constraints")
 *         .build();
 * }</pre>
 * {@value #CRYSTAL_POINTERS} must stay: pointers live there. Section names are matched without regard to case, and a
 * heading may carry a suffix in parentheses ({@code ## The Bond (Oxytocin-Weighted)}). Parsing, rendering, the
 * synthesizers and the collapse guards all follow the schema they are given.
 *
 * <p>Immutable and thread-safe.
 */
public final class StateSchema {

    /** The default section of the assistant's evolving self-concept: its role, its style, how it works with the user. */
    public static final String PHENOTYPE = "The Phenotype";
    /** The default section of who the user is; weighted by oxytocin. */
    public static final String BOND = "The Bond";
    /** The default section of the user's environment: tools, platforms, systems and services in use. */
    public static final String NICHE = "The Niche";
    /** The default section of the last 1–3 sessions: goals, tasks, decisions, frictions, wins; weighted by dopamine and cortisol. */
    public static final String ACTIVE_CONTEXT = "Active Context";
    /** The section of the crystal pointers, one line each; every schema must keep it. */
    public static final String CRYSTAL_POINTERS = "Crystal Pointers";
    /** The default section of unresolved questions and knowledge gaps. */
    public static final String CURIOSITY_GAPS = "Curiosity Gaps";
    /** The default section of patterns from repeated tasks, with confidence and occurrences. */
    public static final String EMERGING_SKILLS = "Emerging Skills";

    /** Letters, digits, spaces and {@code - ' & / ,}; no parentheses (they mark a heading's suffix). */
    private static final Pattern NAME = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N} '&/,\\-]{0,59}");

    private static final StateSchema DEFAULTS = builder()
            .section(PHENOTYPE, "the assistant's evolving self-concept: its role, its style and how it works with this user")
            .section(BOND, "who the user is: enduring traits, preferences, communication style, trust level, shared "
                    + "history, emotional baseline", Hormone.OXYTOCIN)
            .section(NICHE, "the user's environment and ecosystem: tools, platforms, systems and services in use")
            .section(ACTIVE_CONTEXT, "the last 1-3 sessions: current goals, open tasks, deadlines, decisions; recent "
                    + "frictions (explicit things to avoid) and breakthroughs (recent wins)",
                    Hormone.DOPAMINE, Hormone.CORTISOL)
            .section(CRYSTAL_POINTERS, "search directives for topics that faded into long-term memory, one pointer line each")
            .section(CURIOSITY_GAPS, "unresolved questions, knowledge gaps, things worth asking or exploring")
            .section(EMERGING_SKILLS, "patterns from repeated tasks, as `- <skill> → Confidence: <n>% | Occurrences: <n>`")
            .build();

    /**
     * One section: its name (the heading without suffix), what belongs in it (told to the dream model) and the
     * hormones whose salience says how aggressively a dream updates it.
     *
     * @param name       the heading without suffix: 1 to 60 letters, digits, spaces or {@code - ' & / ,}, starting with a
     *                   letter or digit (stripped)
     * @param guidance   what belongs in the section, on one line
     * @param weightedBy the hormones that weight it; may be empty
     */
    public record Section(String name, String guidance, Set<Hormone> weightedBy) {

        /**
         * Strips {@code name}, joins {@code guidance} onto one line and copies {@code weightedBy}; a null component or
         * a name not of the form above is an {@link IllegalArgumentException}.
         */
        public Section {
            Ensure.notNull(name, "name");
            name = name.strip();
            Ensure.that(NAME.matcher(name).matches(), "A section name is 1 to 60 letters, digits, spaces or - ' & / , "
                    + "and starts with a letter or digit, was '" + name + "'");
            guidance = Ensure.notNull(guidance, "guidance").strip().replaceAll("\\s*\\R\\s*", " ");
            Ensure.notNull(weightedBy, "weightedBy");
            weightedBy = weightedBy.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(weightedBy));
        }

        /** Whether {@code name} names this section (case and surrounding whitespace ignored). */
        public boolean is(String name) {
            return name != null && this.name.equalsIgnoreCase(name.strip());
        }
    }

    private final List<Section> sections;

    private StateSchema(List<Section> sections) {
        this.sections = List.copyOf(sections);
    }

    /** Seed 000's seven sections. */
    public static StateSchema defaults() {
        return DEFAULTS;
    }

    /** An empty builder; {@link #toBuilder()} starts from a schema instead. */
    public static Builder builder() {
        return new Builder(List.of());
    }

    /** A builder that starts from this schema's sections. */
    public Builder toBuilder() {
        return new Builder(sections);
    }

    /** The sections in document order. */
    public List<Section> sections() {
        return sections;
    }

    /** The section names in document order. */
    public List<String> names() {
        return sections.stream().map(Section::name).toList();
    }

    /** The section called {@code name}, ignoring case. */
    public Optional<Section> section(String name) {
        return sections.stream().filter(section -> section.is(name)).findFirst();
    }

    /** Whether a section is called {@code name}, ignoring case. */
    public boolean has(String name) {
        return section(name).isPresent();
    }

    /** The position of {@code name} in the schema, or -1. */
    int indexOf(String name) {
        for (int i = 0; i < sections.size(); i++) {
            if (sections.get(i).is(name)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof StateSchema schema && schema.sections.equals(sections);
    }

    @Override
    public int hashCode() {
        return sections.hashCode();
    }

    @Override
    public String toString() {
        return "StateSchema" + names();
    }

    /** Builds a {@link StateSchema}. Not thread-safe. */
    public static final class Builder {

        private final List<Section> sections;

        private Builder(List<Section> sections) {
            this.sections = new ArrayList<>(sections);
        }

        /** Adds a section at the end. */
        public Builder section(String name, String guidance, Hormone... weightedBy) {
            return section(new Section(name, guidance, Set.of(Ensure.notNull(weightedBy, "weightedBy"))));
        }

        /** Adds a section at the end. */
        public Builder section(Section section) {
            Ensure.notNull(section, "section");
            Ensure.that(sections.stream().noneMatch(s -> s.is(section.name())),
                    "The schema already has a section '" + section.name() + "'");
            sections.add(section);
            return this;
        }

        /** Removes the section called {@code name}. */
        public Builder drop(String name) {
            int index = indexOf(name);
            sections.remove(index);
            return this;
        }

        /** Puts a new section in the place of the one called {@code name}, without hormone weighting. */
        public Builder replace(String name, String newName, String guidance) {
            return replace(name, new Section(newName, guidance, Set.of()));
        }

        /** Puts {@code section} in the place of the one called {@code name}. */
        public Builder replace(String name, Section section) {
            Ensure.notNull(section, "section");
            int index = indexOf(name);
            Ensure.that(sections.stream().noneMatch(s -> s.is(section.name()) && !s.is(name)),
                    "The schema already has a section '" + section.name() + "'");
            sections.set(index, section);
            return this;
        }

        private int indexOf(String name) {
            for (int i = 0; i < sections.size(); i++) {
                if (sections.get(i).is(name)) {
                    return i;
                }
            }
            throw new IllegalArgumentException("The schema has no section '" + name + "', only "
                    + sections.stream().map(Section::name).toList());
        }

        /** @throws IllegalArgumentException when {@value #CRYSTAL_POINTERS} is missing */
        public StateSchema build() {
            Ensure.that(sections.stream().anyMatch(s -> s.is(CRYSTAL_POINTERS)),
                    "The schema must keep the section '" + CRYSTAL_POINTERS + "': crystal pointers live there");
            return new StateSchema(sections);
        }
    }
}
