package dev.workingmemory.dream;

import dev.workingmemory.crystal.CrystalKind;
import dev.workingmemory.crystal.Provenance;
import dev.workingmemory.internal.ContentWords;
import dev.workingmemory.internal.Ensure;
import dev.workingmemory.notes.Note;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A {@link DreamSynthesizer} without a model, used when no dream model is configured so that a user without an API
 * key still gets a state document. Extractive and deterministic: the same input gives the same state.
 *
 * <ol>
 *   <li><b>Notes into sections</b>, most important first (then newest), by simple rules: questions and curiosity cues
 *   → Curiosity Gaps; otherwise a small lexicon per section — who the user is, preferences, feelings, relationship →
 *   The Bond; goals, deadlines, tasks, decisions, current work, frictions, wins → Active Context; what the assistant
 *   is and how it works → The Phenotype; tools, environment, ecosystem → The Niche; nothing matched → Active
 *   Context. {@link Builder#lexicon} replaces a section's cues (or gives a custom section some). A note becomes one
 *   line {@code - <text>}, cut to {@code maxItemChars}.</li>
 *   <li><b>Merged with the old state</b>: each section keeps its new lines first, then its old lines, without
 *   duplicates (same text, case and spacing ignored); placeholder lines go.</li>
 *   <li><b>Fading topics become pointers</b>: when there are notes, an old Active Context line that no note reinforces
 *   (shares at least two content words with, or all of them when it has fewer) leaves Active Context as a pointer;
 *   so does an old line of any section that a note supersedes (it reinforces the line and holds other values:
 *   numbers, dates, versions, month names), so that the state keeps only the current value, with a {@code Past:}
 *   pointer to its history (seed 000);
 *   so do the lines beyond {@code maxActiveItems}. New crystals (other than the input notes' own) become pointers too,
 *   the most important first, up to half of {@code maxPointers}, one per crystal (none for a crystal an old line's
 *   pointer already came from, nor for one whose topic a line of the new state reinforces, as above: the state says
 *   it): their text is long and already searchable. A
 *   pointer's topic is the first sentence of its text (with the next while it has fewer than two content words), cut
 *   to 60 characters; its keywords come from the
 *   {@link KeywordSource} for the crystal it came from (for an old line: the input crystal about the same topic, if
 *   any, sharing two of its content words as above), or else are the longest content words of its text. New pointers come first, then the old ones, up to
 *   {@code maxPointers} (default 12, under the guard's 20).</li>
 *   <li><b>Emerging Skills</b>: task patterns (a verb and its object, see the notes) seen in at least
 *   {@code minSkillOccurrences} notes (default 3), with the old section's counts added:
 *   {@code - fix flaky tests → Confidence: 75% | Occurrences: 3}.</li>
 *   <li><b>Mood</b> from the salience levels; {@code _Last dream_} is the input's time.</li>
 *   <li><b>Every configured section is present</b>; one with nothing to say holds {@code - None yet.}, a placeholder:
 *   the empty-synthesis guard does not count it as substance, and holds a young state only to the substance its notes
 *   offered (see {@link CollapseGuards}), so the first dream of a user with a few notes commits those notes.</li>
 *   <li><b>Within the budget</b>: while the state is too long, the last (oldest, least important) line of the longest
 *   section goes — into a pointer when it is longer than the pointer and there is room — then the last pointers, then
 *   sections the schema does not know.</li>
 * </ol>
 *
 * <p>Thread-safe (immutable) when the keyword source is.
 */
public final class OfflineDreamSynthesizer implements DreamSynthesizer {

    private static final String POINTER_LABEL = "_Use memory_search if the user asks about these topics:_";
    private static final int TOPIC_CHARS = 60;

    private final KeywordSource keywordSource;
    private final SectionRules rules;
    private final int maxPointers;
    private final int maxKeywords;
    private final int maxItemChars;
    private final int maxActiveItems;
    private final int minSkillOccurrences;

    private OfflineDreamSynthesizer(Builder builder) {
        this.keywordSource = builder.keywordSource;
        this.rules = new SectionRules(builder.lexicon);
        this.maxPointers = builder.maxPointers;
        this.maxKeywords = builder.maxKeywords;
        this.maxItemChars = builder.maxItemChars;
        this.maxActiveItems = builder.maxActiveItems;
        this.minSkillOccurrences = builder.minSkillOccurrences;
    }

    /** A builder that starts from the default rules, without a keyword index. */
    public static Builder builder() {
        return new Builder();
    }

    /** With the default rules and no keyword index. */
    public static OfflineDreamSynthesizer create() {
        return builder().build();
    }

    @Override
    public Synthesis synthesize(DreamInput input) {
        Ensure.notNull(input, "input");
        Draft draft = new Draft(input);
        StateDocument state = draft.fit();
        return new Synthesis(state.render(), OptionalInt.empty(), state.render(), 0);
    }

    /** One synthesis in progress. */
    private final class Draft {

        private final DreamInput input;
        private final StateSchema schema;
        private final StateDocument old;
        /** Lines per configured section (Crystal Pointers aside), in order. */
        private final Map<String, List<String>> items = new LinkedHashMap<>();
        private final List<CrystalPointer> pointers = new ArrayList<>();
        /** The crystals a pointer was made from: a crystal gets one pointer. */
        private final Set<String> pointed = new HashSet<>();
        /** Sections of the old state that the schema does not know, kept as they were. */
        private final List<StateDocument.Section> others = new ArrayList<>();

        Draft(DreamInput input) {
            this.input = input;
            this.schema = input.schema();
            this.old = input.oldState().orElse(null);
            schema.names().stream().filter(name -> !name.equals(StateSchema.CRYSTAL_POINTERS))
                    .forEach(name -> items.put(name, new ArrayList<>()));
            List<CrystalPointer> fading = new ArrayList<>();
            placeNotes(fading);
            mergeOld(fading);
            capActiveContext(fading);
            countSkills();
            collectPointers(fading);
        }

        /** Places the notes by section; a note a later one updates is a pointer to its history instead. */
        private void placeNotes(List<CrystalPointer> fading) {
            List<Note> notes = new ArrayList<>(input.notes());
            notes.sort(Comparator.comparingDouble(Note::importance).reversed()
                    .thenComparing(Note::time, Comparator.reverseOrder()));
            for (Note note : notes) {
                List<Note> later = input.notes().stream().filter(other -> other.time().isAfter(note.time())).toList();
                if (restatedWithNewValue(note.text(), later)) {
                    String line = "- " + StateLines.clip(StateLines.oneLine(note.text()), maxItemChars);
                    addTo(fading, pointerFor(line, null));
                    continue;
                }
                List<String> lines = items.get(rules.classify(note, schema));
                if (lines == null && !items.isEmpty()) { // a schema of Crystal Pointers and special sections only
                    lines = items.values().iterator().next();
                }
                String line = "- " + StateLines.clip(StateLines.oneLine(note.text()), maxItemChars);
                if (lines != null) {
                    addUnique(lines, line);
                } else {
                    addPointer(pointerFor(line, null));
                }
            }
        }

        private void mergeOld(List<CrystalPointer> fading) {
            if (old == null) {
                return;
            }
            List<Set<String>> noteWords = input.notes().stream().map(n -> ContentWords.stems(n.text())).toList();
            for (StateDocument.Section section : old.sections()) {
                List<String> lines = items.get(section.name());
                if (section.name().equals(StateSchema.CRYSTAL_POINTERS)) {
                    continue;
                }
                if (lines == null) {
                    others.add(section);
                    continue;
                }
                boolean active = section.name().equals(StateSchema.ACTIVE_CONTEXT);
                for (String line : contentLines(section.body())) {
                    if (section.name().equals(StateSchema.EMERGING_SKILLS) && SkillPatterns.parse(line).isPresent()) {
                        continue; // counted with the new ones
                    }
                    if (superseded(line, input.notes())
                            || active && !noteWords.isEmpty() && !reinforced(line, noteWords)) {
                        addTo(fading, pointerFor(line, null));
                    } else {
                        addUnique(lines, line);
                    }
                }
            }
        }

        private void capActiveContext(List<CrystalPointer> fading) {
            List<String> lines = items.get(StateSchema.ACTIVE_CONTEXT);
            if (lines != null && lines.size() > maxActiveItems) {
                List<String> overflow = lines.subList(maxActiveItems, lines.size());
                overflow.forEach(line -> addTo(fading, pointerFor(line, null)));
                overflow.clear();
            }
        }

        private void countSkills() {
            List<String> lines = items.get(StateSchema.EMERGING_SKILLS);
            if (lines == null) {
                return;
            }
            Map<String, SkillPatterns.Skill> seen = SkillPatterns.count(input.notes().stream().map(Note::text).toList());
            Map<String, SkillPatterns.Skill> skills = new LinkedHashMap<>();
            if (old != null) { // a known skill keeps its name and adds what this dream saw
                for (String line : contentLines(old.body(StateSchema.EMERGING_SKILLS))) {
                    SkillPatterns.parse(line).ifPresent(skill -> {
                        SkillPatterns.Skill now = seen.remove(skill.key());
                        skills.merge(skill.key(), new SkillPatterns.Skill(skill.name(),
                                skill.occurrences() + (now == null ? 0 : now.occurrences())), (a, b) -> a);
                    });
                }
            }
            seen.values().stream().filter(skill -> skill.occurrences() >= minSkillOccurrences)
                    .forEach(skill -> skills.put(skill.key(), skill));
            List<String> skillLines = SkillPatterns.ranked(skills).stream().map(SkillPatterns.Skill::line).toList();
            lines.addAll(0, skillLines);
        }

        private void collectPointers(List<CrystalPointer> fading) {
            Set<String> noteCrystals = new HashSet<>();
            Set<String> noteTexts = new HashSet<>();
            for (Note note : input.consumedNotes()) {
                noteCrystals.add(note.crystalId());
                noteTexts.add(normalized(note.text()));
            }
            fading.forEach(this::addPointer);
            // a crystal whose topic a line of the state says already needs no pointer (a past turn in which the user
            // said what a note keeps)
            List<Set<String>> stateWords = items.values().stream().flatMap(List::stream)
                    .map(ContentWords::stems).toList();
            int fromCrystals = 0;
            for (DreamCrystal crystal : input.crystals()) {
                if (fromCrystals >= Math.max(1, maxPointers / 2) || pointers.size() >= maxPointers) {
                    break;
                }
                if (noteCrystals.contains(crystal.id()) || noteTexts.contains(normalized(crystal.text()))
                        || crystal.text().isBlank() || pointed.contains(crystal.id())) {
                    continue;
                }
                CrystalPointer pointer = pointerFor(crystal.text(), crystal);
                if (pointer != null && !reinforced(pointer.topic(), stateWords) && addPointer(pointer)) {
                    fromCrystals++;
                }
            }
            if (old != null) {
                old.pointers().forEach(this::addPointer);
            }
            while (pointers.size() > maxPointers) {
                pointers.remove(pointers.size() - 1);
            }
        }

        private boolean addPointer(CrystalPointer pointer) {
            if (pointer == null) {
                return false;
            }
            String topic = normalized(pointer.topic());
            boolean known = pointers.stream().anyMatch(p -> normalized(p.topic()).equals(topic));
            if (!known) {
                pointers.add(pointer);
            }
            return !known;
        }

        private static void addTo(List<CrystalPointer> pointers, CrystalPointer pointer) {
            if (pointer != null) {
                pointers.add(pointer);
            }
        }

        /**
         * A pointer for a line or a crystal's text, keywords from the crystal it came from if known; {@code null} when
         * nothing of the text is left for a topic (backticks and arrows only).
         */
        private CrystalPointer pointerFor(String text, DreamCrystal from) {
            // a past turn's topic and words are what its lines say, not their dates and roles, nor the placeholder of a
            // tool's text the dream does not see ("tool run_build: (output not shown)" gave `tool build output shown`)
            String bare = StateLines.bare(from != null && CrystalKind.TURN.textName().equals(from.kind())
                    ? text.lines().filter(line -> !line.endsWith(ToolText.OUTPUT_NOT_SHOWN))
                    .map(Provenance::turnLineText).collect(Collectors.joining("\n")) : text);
            String topic = topic(bare);
            if (topic.isBlank()) {
                return null;
            }
            // A line takes a crystal's keywords only if that crystal is about it by the rule that keeps a line in
            // Active Context: a fading line shares fewer words with every note, so one shared date is no match.
            DreamCrystal source = from != null ? from
                    : PointerCheck.source(new CrystalPointer(topic, topic), input.crystals())
                    .filter(crystal -> reinforced(topic, List.of(ContentWords.stems(crystal.text())))).orElse(null);
            if (source != null) {
                pointed.add(source.id());
            }
            List<String> words = source == null ? List.of() : keywordSource.keywords(source.id(), maxKeywords);
            if (words != null && source != null && !CrystalKind.TOOL_OUTPUT.textName().equals(source.kind())) {
                // a past turn's keywords may come from its tool lines, which the dream does not see: only the words
                // of what it sees (a tool output's keywords are how it is found, and all it has)
                String seen = source.text().toLowerCase(Locale.ROOT);
                words = words.stream().filter(word -> seen.contains(word.toLowerCase(Locale.ROOT))).toList();
            }
            if (words == null || words.isEmpty()) {
                words = ContentWords.keywords(bare, maxKeywords);
            }
            String keywords = String.join(" ", words.stream().map(w -> w.replace("`", "").strip())
                    .filter(w -> !w.isEmpty()).limit(maxKeywords).toList());
            return new CrystalPointer(topic, keywords.isEmpty() ? topic : keywords);
        }

        /** The state as drafted, cut to the budget. */
        StateDocument fit() {
            StateDocument state = render();
            for (int guard = 0; state.length() > input.budgetChars() && guard < 100_000; guard++) {
                if (!dropOneLine() && !dropOnePointer() && !dropOneOtherSection()) {
                    break;
                }
                state = render();
            }
            return state;
        }

        private boolean dropOneLine() {
            List<String> longest = null;
            int longestChars = 0;
            for (List<String> lines : items.values()) {
                int chars = lines.stream().mapToInt(String::length).sum();
                if (!lines.isEmpty() && chars >= longestChars) { // ties: the later section gives first
                    longest = lines;
                    longestChars = chars;
                }
            }
            if (longest == null) {
                return false;
            }
            String line = longest.remove(longest.size() - 1);
            if (pointers.size() < maxPointers && !ContentWords.words(line).isEmpty()
                    && SkillPatterns.parse(line).isEmpty()) {
                CrystalPointer pointer = pointerFor(line, null);
                if (pointer != null && pointer.line().length() < line.length()) {
                    addPointer(pointer);
                }
            }
            return true;
        }

        private boolean dropOnePointer() {
            if (pointers.isEmpty()) {
                return false;
            }
            pointers.remove(pointers.size() - 1);
            return true;
        }

        private boolean dropOneOtherSection() {
            if (others.isEmpty()) {
                return false;
            }
            others.remove(others.size() - 1);
            return true;
        }

        private StateDocument render() {
            StateDocument.Builder builder = StateDocument.builder(schema).lastDream(input.time())
                    .mood(input.salience().mood());
            for (String name : schema.names()) {
                String suffix = old == null ? "" : old.section(name).map(StateDocument.Section::suffix).orElse("");
                String body;
                if (name.equals(StateSchema.CRYSTAL_POINTERS)) {
                    body = pointers.isEmpty() ? StateLines.PLACEHOLDER : POINTER_LABEL + "\n\n"
                            + String.join("\n", pointers.stream().map(CrystalPointer::line).toList());
                } else {
                    List<String> lines = items.get(name);
                    body = lines.isEmpty() ? StateLines.PLACEHOLDER : String.join("\n", lines);
                }
                builder.section(name, suffix, body);
            }
            others.forEach(section -> builder.section(section.name(), section.suffix(), section.body()));
            return builder.build();
        }
    }

    /** The lines of a body that say something: no blanks, placeholders, labels or pointers. */
    private static List<String> contentLines(String body) {
        return StateLines.lines(body).stream()
                .filter(line -> !line.isBlank() && !StateLines.isPlaceholder(line) && !StateLines.isLabel(line)
                        && CrystalPointer.parse(line).isEmpty())
                .toList();
    }

    /**
     * An old line (or a crystal's topic) is reinforced when a note (or a line) shares two of its content words with it
     * (all, when it has fewer).
     */
    private static boolean reinforced(String line, List<Set<String>> noteWords) {
        Set<String> words = ContentWords.stems(line);
        if (words.isEmpty()) {
            return true;
        }
        int needed = Math.min(2, words.size());
        return noteWords.stream().anyMatch(note -> ContentWords.shared(words, note) >= needed);
    }

    /**
     * An old line is superseded when a note states the same thing with another value: the note shares two of the
     * line's content words (all, when it has fewer) and both hold values — numbers, dates, versions, month names —
     * of which the line's are not all in the note ("moved to April 5"), or the note restates them with a new one
     * ({@link #restatedWithNewValue}). The line then leaves the state as a pointer to its history.
     */
    private static boolean superseded(String line, List<Note> notes) {
        return changedValue(line, notes, false) || changedValue(line, notes, true);
    }

    /**
     * Whether a note restates {@code line}'s values and adds one, sharing two of its content words: "Emma's wedding
     * moved from April 1 to April 5" after "Emma is getting married on April 1". Among the notes of one dream only this
     * counts: notes of parallel things ("ticket ABC-100", "ticket ABC-101") differ in their values too, but none
     * names another's.
     */
    private static boolean restatedWithNewValue(String line, List<Note> notes) {
        return changedValue(line, notes, true);
    }

    private static boolean changedValue(String line, List<Note> notes, boolean restated) {
        Set<String> values = values(line);
        Set<String> words = ContentWords.stems(line);
        if (values.isEmpty() || words.isEmpty()) {
            return false;
        }
        int needed = Math.min(2, words.size());
        for (Note note : notes) {
            Set<String> noteValues = values(note.text());
            boolean changed = restated ? noteValues.containsAll(values) && noteValues.size() > values.size()
                    : !noteValues.isEmpty() && !noteValues.containsAll(values);
            if (changed && ContentWords.shared(words, ContentWords.stems(note.text())) >= needed) {
                return true;
            }
        }
        return false;
    }

    private static final Set<String> MONTHS = monthNames();

    private static Set<String> monthNames() {
        Set<String> months = new HashSet<>();
        for (java.time.Month month : java.time.Month.values()) {
            months.add(month.getDisplayName(java.time.format.TextStyle.FULL, Locale.ENGLISH).toLowerCase(Locale.ROOT));
        }
        return months;
    }

    /** The words of a text that hold a value: a digit, or a month's name. */
    private static Set<String> values(String text) {
        Set<String> values = new HashSet<>();
        for (String word : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}.:/-]+")) {
            String bare = word.replaceAll("^[.:/-]+|[.:/-]+$", "");
            if (!bare.isEmpty() && (bare.chars().anyMatch(Character::isDigit) || MONTHS.contains(bare))) {
                values.add(bare);
            }
        }
        return values;
    }

    private static void addUnique(List<String> lines, String line) {
        String key = normalized(line);
        if (lines.stream().noneMatch(existing -> normalized(existing).equals(key))) {
            lines.add(line);
        }
    }

    /** A line compared without list marker, emphasis, case, spacing and final punctuation. */
    private static String normalized(String line) {
        return StateLines.oneLine(StateLines.bare(line)).toLowerCase(Locale.ROOT).replaceAll("[.!;:,]+$", "");
    }

    /**
     * The first sentence of {@code text} (with the next ones while it has fewer than two content words: "Ugh. BibTeX
     * keeps…" is not about "Ugh"), cut to {@value #TOPIC_CHARS} characters, without arrows and backticks.
     */
    static String topic(String text) {
        String one = StateLines.oneLine(text).replace("`", "").replace("→", "-").replace("->", "-");
        String sentence;
        int from = 0;
        while (true) {
            int end = sentenceEnd(one, from);
            sentence = one.substring(0, end).replaceAll("[.!?;:,]+$", "").strip();
            if (end == one.length() || ContentWords.stems(sentence).size() >= 2) {
                break;
            }
            from = end + 1;
        }
        return StateLines.clip(sentence.isEmpty() ? one : sentence, TOPIC_CHARS);
    }

    /** Where the sentence that goes on at {@code from} ends: its stop, or the end of {@code text}. */
    private static int sentenceEnd(String text, int from) {
        int end = text.length();
        for (String stop : new String[] {". ", "! ", "? ", "; ", " — "}) {
            int at = text.indexOf(stop, from);
            if (at > 0 && at < end) {
                end = at;
            }
        }
        return end;
    }

    /** Builds an {@link OfflineDreamSynthesizer}. Not thread-safe. */
    public static final class Builder {

        private KeywordSource keywordSource = KeywordSource.NONE;
        private final Map<String, List<String>> lexicon = new HashMap<>(SectionRules.DEFAULT_LEXICON);
        private int maxPointers = 12;
        private int maxKeywords = 4;
        private int maxItemChars = 300;
        private int maxActiveItems = 12;
        private int minSkillOccurrences = 3;

        private Builder() {
        }

        /** The keyword index of the crystal store: the keywords of a pointer made from a crystal. */
        public Builder keywordSource(KeywordSource keywordSource) {
            this.keywordSource = Ensure.notNull(keywordSource, "keywordSource");
            return this;
        }

        /**
         * The cues that put a note into {@code section} (replacing the default ones of a seed section); a custom
         * section gets notes only through cues given here.
         */
        public Builder lexicon(String section, List<String> cues) {
            Ensure.notBlank(section, "section");
            Ensure.notNull(cues, "cues");
            Ensure.that(!SectionRules.isSpecial(section.strip()), "'" + section.strip()
                    + "' is filled by its own rules, not by a lexicon");
            lexicon.keySet().removeIf(name -> name.equalsIgnoreCase(section.strip()));
            lexicon.put(section.strip(), List.copyOf(cues));
            return this;
        }

        /** The most pointers in the state; default 12 (the pointer-runaway guard allows 20). */
        public Builder maxPointers(int maxPointers) {
            this.maxPointers = Ensure.positive(maxPointers, "maxPointers");
            return this;
        }

        /** The most keywords of a pointer; default 4. */
        public Builder maxKeywords(int maxKeywords) {
            this.maxKeywords = Ensure.positive(maxKeywords, "maxKeywords");
            return this;
        }

        /** The longest line a note becomes (its crystal keeps it whole); default 300. */
        public Builder maxItemChars(int maxItemChars) {
            Ensure.that(maxItemChars >= 20, "maxItemChars must be at least 20, was " + maxItemChars);
            this.maxItemChars = maxItemChars;
            return this;
        }

        /** The most lines Active Context keeps; older ones become pointers; default 12. */
        public Builder maxActiveItems(int maxActiveItems) {
            this.maxActiveItems = Ensure.positive(maxActiveItems, "maxActiveItems");
            return this;
        }

        /** In how many notes a task pattern must appear to be an emerging skill; default 3. */
        public Builder minSkillOccurrences(int minSkillOccurrences) {
            this.minSkillOccurrences = Ensure.positive(minSkillOccurrences, "minSkillOccurrences");
            return this;
        }

        /** A synthesizer with the rules set. */
        public OfflineDreamSynthesizer build() {
            return new OfflineDreamSynthesizer(this);
        }
    }

    @Override
    public String toString() {
        return "OfflineDreamSynthesizer[maxPointers=" + maxPointers + ", maxActiveItems=" + maxActiveItems + "]";
    }
}
