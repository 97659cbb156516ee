package dev.workingmemory.dream;

import dev.workingmemory.internal.Ensure;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The state document of seed 000: the compact markdown state of one user that a dream rewrites and the block shows
 * as {@code <state>}.
 * <pre>
 * # Working Memory State
 *
 * _Last dream: 2026-03-12T16:00:00Z | Mood: motivated, socially engaged_
 *
 * ## The Bond (Oxytocin-Weighted)
 *
 * - User's name is Douglas, prefers tabs over spaces
 *
 * ## Crystal Pointers
 *
 * - Past: P2P bridge CORS debugging → search: `CORS P2P EigenTrust`
 * </pre>
 * The sections are those of a {@link StateSchema}; a heading may carry a suffix in parentheses and is still that
 * section. {@link #parse} reads what people and models write: a preamble before the title (dropped), no title (then the
 * document starts at the first mood line or {@code ## } heading), no mood line, CRLF, trailing whitespace, runs of
 * blank lines, {@code ###} sub-headings and code blocks inside a section, numbered or bold headings
 * ({@code ## 2. **The Bond**}), a section written twice (the bodies are joined), {@code ->} in pointers. Sections the
 * schema does not know are kept, after the configured ones. {@link #render} writes the canonical form: the title, the
 * mood line, the text before the first section if any, then the configured sections in schema order and the other
 * sections in the order they came.
 *
 * <p><b>The text is data.</b> It comes from users, notes and a model; nothing in it is executed or trusted, and
 * rendering escapes nothing: whoever puts it into the {@code <working_memory>} block escapes it there.
 *
 * <p>Immutable and thread-safe.
 */
public final class StateDocument {

    /** The first line of every rendered document. */
    public static final String TITLE = "# Working Memory State";

    /**
     * A section: its name (the schema's spelling for a configured section), the heading's suffix in parentheses or
     * {@code ""}, and its body (normalized: no blank lines at the ends, no run of blank lines).
     *
     * @param name   the section's name, without suffix
     * @param suffix the heading's suffix in parentheses, or {@code ""}
     * @param body   the section's text below its heading
     */
    public record Section(String name, String suffix, String body) {

        /** Rejects a blank {@code name} or a null {@code suffix} or {@code body} with an {@link IllegalArgumentException}. */
        public Section {
            Ensure.notBlank(name, "name");
            Ensure.notNull(suffix, "suffix");
            Ensure.notNull(body, "body");
        }

        /** The heading's text after {@code ## }. */
        public String heading() {
            return suffix.isEmpty() ? name : name + " " + suffix;
        }

        /** The characters of substance (see {@link StateDocument#substanceChars()}). */
        public int substanceChars() {
            return StateLines.substance(body);
        }
    }

    private final StateSchema schema;
    private final Instant lastDream;
    private final String mood;
    private final String intro;
    private final List<Section> sections;
    private final String rendered;

    StateDocument(StateSchema schema, Instant lastDream, String mood, String intro, List<Section> sections) {
        this.schema = schema;
        this.lastDream = lastDream == null ? null : lastDream.truncatedTo(ChronoUnit.SECONDS);
        this.mood = mood == null || mood.isBlank() ? null : cleanMood(mood);
        this.intro = StateLines.normalizeBody(intro);
        this.sections = ordered(schema, sections);
        this.rendered = renderText();
    }

    /** Reads {@code markdown} with seed 000's seven sections. */
    public static StateDocument parse(String markdown) {
        return parse(markdown, StateSchema.defaults());
    }

    /** Reads {@code markdown} (see the class comment for what it tolerates); never fails on content. */
    public static StateDocument parse(String markdown, StateSchema schema) {
        Ensure.notNull(markdown, "markdown");
        Ensure.notNull(schema, "schema");
        return StateParser.parse(markdown, schema);
    }

    /** A document with the default schema. */
    public static Builder builder() {
        return new Builder(StateSchema.defaults());
    }

    /** A document with the sections of {@code schema}. */
    public static Builder builder(StateSchema schema) {
        return new Builder(Ensure.notNull(schema, "schema"));
    }

    /** A builder that starts from this document: its schema, mood line, intro and sections. */
    public Builder toBuilder() {
        Builder builder = new Builder(schema).lastDream(lastDream).mood(mood).intro(intro);
        for (Section section : sections) {
            builder.section(section.name(), section.suffix(), section.body());
        }
        return builder;
    }

    /** The schema this document was read or built with. */
    public StateSchema schema() {
        return schema;
    }

    /** The time on the mood line, when it holds one. */
    public Optional<Instant> lastDream() {
        return Optional.ofNullable(lastDream);
    }

    /** The mood on the mood line, when it holds one. */
    public Optional<String> mood() {
        return Optional.ofNullable(mood);
    }

    /** Text between the mood line and the first section, usually {@code ""}. */
    public String intro() {
        return intro;
    }

    /** The sections in rendering order: configured ones in schema order, then the others. */
    public List<Section> sections() {
        return sections;
    }

    /** The section called {@code name} (case ignored; a suffix in parentheses may be given). */
    public Optional<Section> section(String name) {
        String wanted = StateParser.sectionName(name == null ? "" : name);
        return sections.stream().filter(s -> s.name().equalsIgnoreCase(wanted)).findFirst();
    }

    /** The body of the section called {@code name}, or {@code ""} when it is absent. */
    public String body(String name) {
        return section(name).map(Section::body).orElse("");
    }

    /** The configured sections the document lacks, in schema order. */
    public List<String> missingSections() {
        return schema.names().stream().filter(name -> section(name).isEmpty()).toList();
    }

    /** Every pointer line of the document, in order (they belong in Crystal Pointers, but are read anywhere). */
    public List<CrystalPointer> pointers() {
        List<CrystalPointer> pointers = new ArrayList<>();
        for (Section section : sections) {
            for (String line : StateLines.lines(section.body())) {
                CrystalPointer.parse(line).ifPresent(pointers::add);
            }
        }
        return pointers;
    }

    /**
     * The characters of substance in all sections: text other than headings, whitespace, placeholder lines
     * ({@code None}, {@code N/A}, {@code -}, …) and template labels; the empty-synthesis guard measures it.
     */
    public int substanceChars() {
        return sections.stream().mapToInt(Section::substanceChars).sum();
    }

    /** This document with another mood line. */
    public StateDocument withHeader(Instant lastDream, String mood) {
        return new StateDocument(schema, lastDream, mood, intro, sections);
    }

    /** This document with {@code body} as the body of the section {@code name} (added when absent). */
    public StateDocument withSection(String name, String body) {
        Builder builder = toBuilder();
        builder.sections.remove(Builder.key(StateParser.sectionName(name)));
        return builder.section(name, body).build();
    }

    /**
     * This document with {@code pointers} as its only pointers: pointer lines are removed from every section and
     * {@code pointers} are written at the end of Crystal Pointers, after its other lines (placeholders go when there
     * is a pointer).
     */
    public StateDocument withPointers(List<CrystalPointer> pointers) {
        Ensure.notNull(pointers, "pointers");
        Builder builder = new Builder(schema).lastDream(lastDream).mood(mood).intro(intro);
        boolean placed = false;
        for (Section section : sections) {
            List<String> kept = new ArrayList<>();
            boolean pointerSection = section.name().equalsIgnoreCase(StateSchema.CRYSTAL_POINTERS);
            for (String line : StateLines.lines(section.body())) {
                boolean pointer = CrystalPointer.parse(line).isPresent();
                boolean emptyMark = pointerSection && !pointers.isEmpty() && StateLines.isPlaceholder(line)
                        && !line.isBlank();
                if (!pointer && !emptyMark) {
                    kept.add(line);
                }
            }
            if (pointerSection) {
                appendPointers(kept, pointers);
                placed = true;
            }
            builder.section(section.name(), section.suffix(), StateLines.normalizeBody(kept));
        }
        if (!placed) {
            List<String> lines = new ArrayList<>();
            appendPointers(lines, pointers);
            builder.section(StateSchema.CRYSTAL_POINTERS, String.join("\n", lines));
        }
        return builder.build();
    }

    private static void appendPointers(List<String> lines, List<CrystalPointer> pointers) {
        if (!pointers.isEmpty() && !lines.isEmpty() && !lines.get(lines.size() - 1).isBlank()
                && CrystalPointer.parse(lines.get(lines.size() - 1)).isEmpty()) {
            lines.add("");
        }
        pointers.forEach(pointer -> lines.add(pointer.line()));
    }

    /** The canonical markdown of the document, without a final line break. */
    public String render() {
        return rendered;
    }

    /** The length of {@link #render()}. */
    public int length() {
        return rendered.length();
    }

    /**
     * {@link #render()} within {@code maxChars}: cut at a line boundary, ending with
     * {@value StateBudget#TRUNCATION_MARKER} (see {@link StateBudget#fit}).
     */
    public String renderWithin(int maxChars) {
        return StateBudget.fit(rendered, maxChars);
    }

    private String renderText() {
        StringBuilder out = new StringBuilder(256).append(TITLE).append("\n\n");
        if (lastDream != null || mood != null) {
            out.append("_Last dream: ").append(lastDream == null ? "never" : lastDream.toString())
                    .append(" | Mood: ").append(mood == null ? "neutral" : mood).append("_\n\n");
        }
        if (!intro.isEmpty()) {
            out.append(intro).append("\n\n");
        }
        for (Section section : sections) {
            out.append("## ").append(section.heading()).append("\n\n");
            if (!section.body().isEmpty()) {
                out.append(section.body()).append("\n\n");
            }
        }
        return out.toString().stripTrailing();
    }

    private static List<Section> ordered(StateSchema schema, List<Section> sections) {
        List<Section> known = new ArrayList<>();
        List<Section> other = new ArrayList<>();
        for (StateSchema.Section configured : schema.sections()) {
            sections.stream().filter(s -> configured.is(s.name())).findFirst().ifPresent(known::add);
        }
        for (Section section : sections) {
            if (!schema.has(section.name())) {
                other.add(section);
            }
        }
        known.addAll(other);
        return List.copyOf(known);
    }

    /** A mood fits on the mood line: one line, no {@code |}, no emphasis markers at its ends. */
    private static String cleanMood(String mood) {
        return StateLines.oneLine(mood).replace('|', '/').replaceAll("^[_*]+|[_*]+$", "").strip();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof StateDocument document && document.rendered.equals(rendered)
                && document.schema.equals(schema);
    }

    @Override
    public int hashCode() {
        return rendered.hashCode();
    }

    /** The rendered document. */
    @Override
    public String toString() {
        return rendered;
    }

    /** Builds a {@link StateDocument}; a section added twice has its bodies joined. Not thread-safe. */
    public static final class Builder {

        private final StateSchema schema;
        private Instant lastDream;
        private String mood;
        private String intro = "";
        private final Map<String, Section> sections = new LinkedHashMap<>();

        private Builder(StateSchema schema) {
            this.schema = schema;
        }

        /** The time on the mood line, kept to the second; {@code null} (the default) for none. */
        public Builder lastDream(Instant lastDream) {
            this.lastDream = lastDream;
            return this;
        }

        /** The mood on the mood line, joined onto one line; {@code null} or blank (the default) for none. */
        public Builder mood(String mood) {
            this.mood = mood;
            return this;
        }

        /** Text between the mood line and the first section. */
        public Builder intro(String intro) {
            this.intro = Ensure.notNull(intro, "intro");
            return this;
        }

        /**
         * Adds a section. {@code name} may carry a suffix in parentheses; a configured section takes the schema's
         * spelling. A {@code ## } line in {@code body} becomes {@code ###} (it would start another section).
         */
        public Builder section(String name, String body) {
            Ensure.notBlank(name, "name");
            return section(StateParser.sectionName(name), StateParser.sectionSuffix(name), body);
        }

        Builder section(String name, String suffix, String body) {
            Ensure.notNull(body, "body");
            String canonical = schema.section(name).map(StateSchema.Section::name).orElse(StateLines.oneLine(name));
            Ensure.that(!canonical.isEmpty() && !canonical.startsWith("#"), "Bad section name '" + name + "'");
            String normalized = StateLines.normalizeBody(body);
            sections.merge(key(canonical), new Section(canonical, suffix, normalized), (a, b) -> new Section(
                    a.name(), a.suffix(), StateLines.normalizeBody(a.body() + "\n\n" + b.body())));
            return this;
        }

        static String key(String name) {
            return name.strip().toLowerCase(Locale.ROOT);
        }

        /** The document, with the schema's sections first in schema order, then the others. */
        public StateDocument build() {
            return new StateDocument(schema, lastDream, mood, intro, List.copyOf(sections.values()));
        }
    }
}
