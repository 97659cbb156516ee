package dev.workingmemory.dream;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The default {@link SalienceScorer}: cues from a small lexicon, weighted by intensity (see
 * {@link SalienceScorer#lexicon()}). Thread-safe (stateless).
 *
 * <p>A message is read as words (runs of letters, digits, apostrophes and inner hyphens, compared ignoring case) in
 * one pass: each word is looked up among the first words of the cues, and only a hit tries the cue's next words,
 * which must follow one space apart. So a message costs a hash lookup per word, not a regular expression per cue
 * (this runs on every user and assistant message). A strong cue's words are not counted again as mild cues; a
 * hyphenated word that is no cue counts by its parts ("error-prone" holds "error").
 */
final class LexiconSalienceScorer implements SalienceScorer {

    static final LexiconSalienceScorer INSTANCE = new LexiconSalienceScorer();

    static final int MAX_CHARS = 8_000;
    private static final double STRONG = 0.5;
    private static final double MILD = 0.25;
    private static final double INTENSITY_STEP = 0.15;
    /** One message never saturates a level: only a run of them does. */
    static final double MAX_SCORE = 0.9;
    /** The longest word looked at; longer runs are no word of the lexicon. */
    private static final int MAX_WORD = 40;

    /**
     * The cues: words one space apart; {@code a|b} is either word, a trailing {@code ?} makes a word optional, a
     * trailing {@code *} matches any word starting so.
     */
    private static final List<String> DOPAMINE_STRONG = List.of(
            "finally works|working|worked|work|fixed|solved|passing|passes|green", "it works", "works now",
            "it's working", "it is working", "it worked", "breakthrough|break-through", "nailed it", "solved it",
            "fixed it", "all? test|tests are|is? now? pass|passing|passed|green", "build is green", "we did it",
            "shipped", "that did it", "eureka", "it's alive");
    private static final List<String> DOPAMINE_MILD = List.of("great", "awesome", "amazing", "excellent", "perfect",
            "brilliant", "fantastic", "yay", "woohoo", "hooray", "nice", "solved", "fixed", "works", "working", "passed",
            "success|successful|successfully");
    /** Emoji among the mild dopamine cues, counted as symbols standing apart from words. */
    private static final List<String> DOPAMINE_EMOJI = List.of("\uD83C\uDF89", "\uD83D\uDE80", "\u2705");
    private static final List<String> CORTISOL_STRONG = List.of("frustrat*", "still failing|broken|fails",
            "still not working", "doesn't work", "does not work", "not working", "keep|keeps failing|crashing|breaking",
            "wasted", "giving up", "fed up", "ugh", "wtf", "argh", "sick of", "hate this|it", "nothing works");
    private static final List<String> CORTISOL_MILD = List.of("error|errors", "fail|fails|failed|failing|failure",
            "broken", "bug|bugs", "buggy", "stuck", "annoying|annoyed", "problem|problems",
            "crash|crashes|crashed|crashing", "wrong", "again", "confused|confusing", "slow", "worse", "ridiculous");
    private static final List<String> OXYTOCIN_STRONG = List.of("thank you so much", "thanks so much", "thanks a lot",
            "thank you very much", "you're the best", "you are the best", "you're amazing|awesome|great",
            "you are amazing|awesome|great",
            "you're a lifesaver", "you are a lifesaver", "really|truly appreciate it?",
            "grateful", "couldn't have done it|this without you", "love working with you", "lifesaver|life-saver");
    private static final List<String> OXYTOCIN_MILD = List.of("thank you", "thanks", "thx", "appreciate|appreciated",
            "glad", "pleasure", "kind of you", "friend", "trust you", "happy to");
    private static final List<String> INTENSIFIERS = List.of("so", "really", "very", "totally", "extremely",
            "absolutely", "super", "finally", "incredibly");

    /** Cues by their possible first words (lower case), in lexicon order. */
    private static final Map<String, List<Cue>> BY_FIRST_WORD = new HashMap<>();
    /** Cues whose first word is a prefix ({@code frustrat*}), with the prefix. */
    private static final List<Map.Entry<String, Cue>> BY_PREFIX = new ArrayList<>();
    /** Words whose letters repeat ({@code ughhh}, {@code wooohoo}), with the cue word they spell. */
    private static final List<Map.Entry<Pattern, String>> STRETCHED = List.of(
            Map.entry(Pattern.compile("ugh+"), "ugh"), Map.entry(Pattern.compile("argh+"), "argh"),
            Map.entry(Pattern.compile("wo{2,}-?ho{2,}"), "woohoo"));
    private static final WordTable WORDS;
    /** The first letters (ASCII) of the prefix cues. */
    private static final boolean[] PREFIX_FIRST_LETTERS = new boolean[128];
    private static final int ALL_HORMONES = (1 << Hormone.values().length) - 1;

    static {
        add(Hormone.DOPAMINE, true, DOPAMINE_STRONG);
        add(Hormone.DOPAMINE, false, DOPAMINE_MILD);
        add(Hormone.CORTISOL, true, CORTISOL_STRONG);
        add(Hormone.CORTISOL, false, CORTISOL_MILD);
        add(Hormone.OXYTOCIN, true, OXYTOCIN_STRONG);
        add(Hormone.OXYTOCIN, false, OXYTOCIN_MILD);
        WORDS = new WordTable(BY_FIRST_WORD, INTENSIFIERS);
        for (Map.Entry<String, Cue> prefixed : BY_PREFIX) {
            char first = prefixed.getKey().charAt(0);
            if (first < 128) {
                PREFIX_FIRST_LETTERS[first] = true;
            }
        }
    }

    private static final Pattern STACK_TRACE = Pattern.compile(
            "(?m)^\\s+at [\\w$.<>]+\\([^)]*\\)\\s*$|Traceback \\(most recent call last\\)");
    /** Error signals, each with a word it cannot match without: a plain search rules most texts out cheaply. */
    private static final Map<String, Pattern> ERROR_SIGNALS = Map.of(
            "ERROR", Pattern.compile("\\bERROR\\b"),
            "FAIL", Pattern.compile("\\bFAIL(?:ED|URE)\\b"),
            "FATAL", Pattern.compile("\\bFATAL\\b"),
            "Exception", Pattern.compile("\\wException\\b"));
    private static final Pattern ERROR_COLON = Pattern.compile("(?i)\\berror:");

    private LexiconSalienceScorer() {
    }

    @Override
    public SalienceLevels score(SalienceSource source, String text) {
        if (source == null || text == null || text.isBlank()) {
            return SalienceLevels.NONE;
        }
        String t = text.length() > MAX_CHARS ? text.substring(0, MAX_CHARS) : text;
        return switch (source) {
            case USER_MESSAGE -> words(t, 1.0);
            case ASSISTANT_MESSAGE -> words(t, 0.5);
            case TOOL_RESULT -> new SalienceLevels(0, toolErrors(t, 0), 0);
            case TOOL_ERROR -> new SalienceLevels(0, toolErrors(t, 0.3), 0);
        };
    }

    private static SalienceLevels words(String text, double factor) {
        Words words = Words.of(text);
        int[][] counts = new int[Hormone.values().length][2]; // per hormone: strong, mild
        for (Hormone hormone : Hormone.values()) {
            if ((words.hormones & 1 << hormone.ordinal()) != 0) { // most messages hold one hormone's cues, or none
                count(words, hormone, counts[hormone.ordinal()]);
            }
        }
        boolean intensifier = words.intensifier;
        counts[Hormone.DOPAMINE.ordinal()][1] += emoji(text);
        if (counts[0][0] + counts[0][1] + counts[1][0] + counts[1][1] + counts[2][0] + counts[2][1] == 0) {
            return SalienceLevels.NONE;
        }
        double intensity = intensity(text, intensifier) * factor;
        return new SalienceLevels(level(counts[Hormone.DOPAMINE.ordinal()], intensity),
                level(counts[Hormone.CORTISOL.ordinal()], intensity), level(counts[Hormone.OXYTOCIN.ordinal()], intensity));
    }

    private static double level(int[] counts, double intensity) {
        return Math.min(MAX_SCORE, (counts[0] * STRONG + counts[1] * MILD) * intensity);
    }

    /** Counts {@code hormone}'s strong cues, then its mild cues among the words no strong cue took. */
    private static void count(Words words, Hormone hormone, int[] counts) {
        boolean[] taken = null;
        for (int i = 0; i < words.count; i++) {
            int end = match(words, i, hormone, true);
            if (end > i) {
                counts[0]++;
                if (taken == null) {
                    taken = new boolean[words.count];
                }
                for (int j = i; j < end; j++) {
                    taken[j] = true;
                }
                i = end - 1;
            }
        }
        for (int i = 0; i < words.count; i++) {
            if (taken != null && taken[i]) {
                continue;
            }
            int end = match(words, i, hormone, false);
            if (end > i && (taken == null || noneTaken(taken, i, end))) {
                counts[1]++;
                i = end - 1;
            } else if (end <= i && words.hyphenated[i]) {
                counts[1] += hyphenParts(words, i, hormone);
            }
        }
    }

    private static boolean noneTaken(boolean[] taken, int from, int to) {
        for (int j = from; j < to; j++) {
            if (taken[j]) {
                return false;
            }
        }
        return true;
    }

    /** The end (exclusive) of the first cue of {@code hormone} and strength starting at word {@code i}, or -1. */
    private static int match(Words words, int i, Hormone hormone, boolean strong) {
        List<Cue> cues = words.cues[i];
        if (cues == null) {
            return -1;
        }
        for (Cue cue : cues) {
            if (cue.hormone == hormone && cue.strong == strong) {
                int end = cue.match(words, i);
                if (end > i) {
                    return end;
                }
            }
        }
        return -1;
    }

    /** The mild single-word cues among the parts of a hyphenated word ("error-prone"). */
    private static int hyphenParts(Words words, int i, Hormone hormone) {
        int found = 0;
        String word = words.lowerCase(i);
        for (String part : word.split("-")) {
            for (Cue cue : BY_FIRST_WORD.getOrDefault(part, List.of())) {
                if (cue.hormone == hormone && !cue.strong && cue.slots.length == 1) {
                    found++;
                    break;
                }
            }
        }
        return found;
    }

    /** The emoji cues standing apart from words (no letter, digit or apostrophe before them, no letter or digit after). */
    private static int emoji(String text) {
        int found = 0;
        for (String symbol : DOPAMINE_EMOJI) {
            for (int at = text.indexOf(symbol); at >= 0; at = text.indexOf(symbol, at + symbol.length())) {
                int after = at + symbol.length();
                boolean apart = (at == 0 || !isWordChar(text.charAt(at - 1)) && text.charAt(at - 1) != '\'')
                        && (after == text.length() || !isWordChar(text.charAt(after)));
                if (apart) {
                    found++;
                }
            }
        }
        return found;
    }

    /** +15% per exclamation mark (up to three), for an intensifier word, for a shouted word (three capitals or more). */
    private static double intensity(String text, boolean intensifier) {
        int exclamations = 0;
        for (int at = text.indexOf('!'); at >= 0 && exclamations < 3; at = text.indexOf('!', at + 1)) {
            exclamations++;
        }
        double intensity = 1 + INTENSITY_STEP * exclamations;
        if (intensifier) {
            intensity += INTENSITY_STEP;
        }
        if (shouts(text)) {
            intensity += INTENSITY_STEP;
        }
        return intensity;
    }

    /** Whether a word of three or more capitals stands alone ({@code IT WORKS}, not {@code HTTPServer}). */
    private static boolean shouts(String text) {
        int run = 0;
        for (int i = 0; i <= text.length(); i++) {
            char c = i < text.length() ? text.charAt(i) : ' ';
            if (c < 128 ? c >= 'A' && c <= 'Z' : Character.isUpperCase(c)) {
                run++;
            } else {
                if (run >= 3 && !isWordChar(c) && (i - run == 0 || !isWordChar(text.charAt(i - run - 1)))) {
                    return true;
                }
                run = 0;
            }
        }
        return false;
    }

    /**
     * Whether {@code text} holds {@code lower} (a lexicon word: lower-case ASCII) at {@code from}, ignoring case, as
     * {@code text.regionMatches(true, from, lower, 0, lower.length())} answers: ASCII compared directly (most words),
     * any other character by {@code regionMatches} (the Kelvin sign is a {@code k} to it).
     */
    static boolean startsIgnoringCase(String text, int from, String lower) {
        int length = lower.length();
        if (from < 0 || from > text.length() - length) {
            return false;
        }
        for (int k = 0; k < length; k++) {
            char c = text.charAt(from + k);
            if (c >= 128) {
                return text.regionMatches(true, from, lower, 0, length);
            }
            if (c >= 'A' && c <= 'Z') {
                c += 'a' - 'A';
            }
            if (c != lower.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isWordChar(char c) {
        return isLetterOrDigit(c) || c == '_';
    }

    /** {@link Character#isLetterOrDigit(char)}, from a table for ASCII: this runs for every character of a message. */
    private static boolean isLetterOrDigit(char c) {
        return c < 128 ? ASCII_LETTER_OR_DIGIT[c] : Character.isLetterOrDigit(c);
    }

    private static final boolean[] ASCII_LETTER_OR_DIGIT = new boolean[128];

    static {
        for (char c = 0; c < 128; c++) {
            ASCII_LETTER_OR_DIGIT[c] = Character.isLetterOrDigit(c);
        }
    }

    private static void add(Hormone hormone, boolean strong, List<String> cues) {
        for (String text : cues) {
            Cue cue = Cue.parse(hormone, strong, text);
            for (String first : cue.firstWords()) {
                if (first.endsWith("*")) {
                    BY_PREFIX.add(Map.entry(first.substring(0, first.length() - 1), cue));
                } else {
                    BY_FIRST_WORD.computeIfAbsent(first, w -> new ArrayList<>()).add(cue);
                }
            }
        }
    }

    /** One cue: its words, each a set of alternatives, maybe optional. Immutable. */
    private record Cue(Hormone hormone, boolean strong, Slot[] slots) {

        static Cue parse(Hormone hormone, boolean strong, String text) {
            String[] parts = text.split(" ");
            Slot[] slots = new Slot[parts.length];
            for (int i = 0; i < parts.length; i++) {
                boolean optional = parts[i].endsWith("?");
                String words = optional ? parts[i].substring(0, parts[i].length() - 1) : parts[i];
                slots[i] = new Slot(words.split("\\|"), optional);
            }
            return new Cue(hormone, strong, slots);
        }

        /** The words a match can start with: the first slot's, and the next one's while slots are optional. */
        List<String> firstWords() {
            List<String> first = new ArrayList<>();
            for (Slot slot : slots) {
                first.addAll(List.of(slot.words));
                if (!slot.optional) {
                    break;
                }
            }
            return first;
        }

        /** The end (exclusive) of this cue matched from word {@code start}, or -1. */
        int match(Words words, int start) {
            return match(words, start, 0, true);
        }

        private int match(Words words, int at, int slot, boolean first) {
            if (slot == slots.length) {
                return at;
            }
            Slot s = slots[slot];
            boolean follows = at < words.count && (first || words.spaceBefore[at]);
            if (follows && s.matches(words, at)) {
                int end = match(words, at + 1, slot + 1, false);
                if (end >= 0) {
                    return end;
                }
            }
            return s.optional ? match(words, at, slot + 1, first) : -1;
        }
    }

    /** One word of a cue: its alternatives, maybe optional, a trailing {@code *} a prefix. Immutable. */
    private record Slot(String[] words, boolean optional) {

        boolean matches(Words text, int i) {
            for (String word : words) {
                if (word.endsWith("*") ? text.startsWith(i, word.substring(0, word.length() - 1)) : text.is(i, word)) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * The words of a text: where each is, whether one space alone separates it from the one before, and the cues it may
     * start. Words are compared in place, ignoring case; only a word that a cue may start is copied. Not thread-safe:
     * one per scoring.
     */
    private static final class Words {
        private final String text;
        int count;
        int[] start = new int[32];
        int[] end = new int[32];
        boolean[] spaceBefore = new boolean[32];
        boolean[] hyphenated = new boolean[32];
        /** The word in lower case, spelled out ({@code ughhh} as {@code ugh}); null unless a cue may start with it. */
        String[] lower = new String[32];
        @SuppressWarnings("unchecked")
        List<Cue>[] cues = new List[32];
        /** The hormones ({@code 1 << ordinal}) whose cues a word may start; all of them for a hyphenated word. */
        int hormones;
        boolean intensifier;

        private Words(String text) {
            this.text = text;
        }

        static Words of(String text) {
            Words words = new Words(text);
            int length = text.length();
            int i = 0;
            int previousEnd = -1;
            while (i < length) {
                char c = text.charAt(i);
                if (!isLetterOrDigit(c) && c != '\'') {
                    i++;
                    continue;
                }
                int from = i;
                boolean hyphen = false;
                while (i < length) {
                    char d = text.charAt(i);
                    if (isLetterOrDigit(d) || d == '\'') {
                        i++;
                    } else if (d == '-' && i + 1 < length && isLetterOrDigit(text.charAt(i + 1))) {
                        hyphen = true;
                        i++;
                    } else {
                        break;
                    }
                }
                int to = i;
                while (to > from && text.charAt(to - 1) == '\'') {
                    to--;
                }
                boolean quoted = text.charAt(from) == '\''; // no cue starts right after an apostrophe
                while (from < to && text.charAt(from) == '\'') {
                    from++;
                }
                if (to == from || to - from > MAX_WORD) {
                    previousEnd = -1;
                    continue;
                }
                boolean space = previousEnd >= 0 && from == previousEnd + 1 && text.charAt(previousEnd) == ' ';
                words.add(from, to, space, hyphen, quoted);
                previousEnd = to;
            }
            return words;
        }

        private void add(int from, int to, boolean space, boolean hyphen, boolean quoted) {
            if (count == start.length) {
                int size = count * 2;
                start = Arrays.copyOf(start, size);
                end = Arrays.copyOf(end, size);
                spaceBefore = Arrays.copyOf(spaceBefore, size);
                hyphenated = Arrays.copyOf(hyphenated, size);
                lower = Arrays.copyOf(lower, size);
                cues = Arrays.copyOf(cues, size);
            }
            start[count] = from;
            end[count] = to;
            spaceBefore[count] = space;
            hyphenated[count] = hyphen && !quoted;
            Entry entry = WORDS.find(text, from, to);
            String spelled = entry != null ? entry.word : stretched(from, to);
            List<Cue> found = entry == null || quoted ? null : entry.cues;
            if (!quoted && mayStartPrefixCue(from, to)) {
                String word = spelled != null ? spelled : text.substring(from, to).toLowerCase(Locale.ROOT);
                for (Map.Entry<String, Cue> prefixed : BY_PREFIX) {
                    if (word.startsWith(prefixed.getKey())) {
                        found = found == null ? new ArrayList<>() : new ArrayList<>(found);
                        found.add(prefixed.getValue());
                        spelled = word;
                    }
                }
            }
            if (spelled != null && found == null && !quoted && entry == null) {
                found = BY_FIRST_WORD.get(spelled); // a stretched cue word
            }
            lower[count] = spelled;
            cues[count] = found;
            if (found != null) {
                for (Cue cue : found) {
                    hormones |= 1 << cue.hormone.ordinal();
                }
            }
            if (hyphen) {
                hormones |= ALL_HORMONES; // its parts may be any hormone's mild cues
            }
            intensifier |= entry != null && entry.intensifier;
            count++;
        }

        /** Whether the word may start with a prefix cue's prefix. */
        private boolean mayStartPrefixCue(int from, int to) {
            char first = Character.toLowerCase(text.charAt(from));
            if (first < 128 && !PREFIX_FIRST_LETTERS[first]) {
                return false; // most words: checked by a table, not against each prefix
            }
            for (Map.Entry<String, Cue> prefixed : BY_PREFIX) {
                String prefix = prefixed.getKey();
                if (first == prefix.charAt(0) && to - from >= prefix.length()
                        && startsIgnoringCase(text, from, prefix)) {
                    return true;
                }
            }
            return false;
        }

        /** {@code ughhh} as {@code ugh}: the cue word a word with repeated letters spells, else null. */
        private String stretched(int from, int to) {
            if (to - from < 4) {
                return null;
            }
            char first = Character.toLowerCase(text.charAt(from));
            char second = Character.toLowerCase(text.charAt(from + 1));
            // "again", "would": their second letter already tells them from ugh, argh and woo
            if (!(first == 'u' && second == 'g' || first == 'a' && second == 'r' || first == 'w' && second == 'o')
                    || !(startsIgnoringCase(text, from, "ugh") || startsIgnoringCase(text, from, "argh")
                    || startsIgnoringCase(text, from, "woo"))) {
                return null;
            }
            String word = text.substring(from, to).toLowerCase(Locale.ROOT);
            for (Map.Entry<Pattern, String> stretched : STRETCHED) {
                if (stretched.getKey().matcher(word).matches()) {
                    return stretched.getValue();
                }
            }
            return null;
        }

        boolean is(int i, String word) {
            return lower[i] != null ? lower[i].equals(word)
                    : end[i] - start[i] == word.length() && startsIgnoringCase(text, start[i], word);
        }

        boolean startsWith(int i, String prefix) {
            return lower[i] != null ? lower[i].startsWith(prefix)
                    : end[i] - start[i] >= prefix.length() && startsIgnoringCase(text, start[i], prefix);
        }

        String lowerCase(int i) {
            return lower[i] != null ? lower[i] : text.substring(start[i], end[i]).toLowerCase(Locale.ROOT);
        }
    }

    /** A word of the lexicon: the cues it starts (or null), whether it is an intensifier. Immutable. */
    private record Entry(String word, List<Cue> cues, boolean intensifier) {
    }

    /**
     * The lexicon's first words and intensifiers by the hash of their lower-case letters, looked up in place in a text
     * (open addressing, compared ignoring case), so that the words of a message need not be copied. Immutable after
     * the class is initialised.
     */
    private static final class WordTable {
        private final int[] hashes;
        private final Entry[] entries;
        private final int mask;

        WordTable(Map<String, List<Cue>> cues, List<String> intensifiers) {
            java.util.Set<String> words = new java.util.LinkedHashSet<>(cues.keySet());
            words.addAll(intensifiers);
            int size = Integer.highestOneBit(words.size() * 4 - 1) << 1;
            hashes = new int[size];
            entries = new Entry[size];
            mask = size - 1;
            for (String word : words) {
                int h = word.hashCode();
                int slot = h & mask;
                while (entries[slot] != null) {
                    slot = (slot + 1) & mask;
                }
                hashes[slot] = h;
                entries[slot] = new Entry(word, cues.get(word), intensifiers.contains(word));
            }
        }

        /** The entry of the word {@code text[from, to)}, compared ignoring case, or null. */
        Entry find(String text, int from, int to) {
            int h = 0;
            for (int i = from; i < to; i++) {
                char c = text.charAt(i);
                h = 31 * h + (c >= 'A' && c <= 'Z' ? c + 32 : c < 128 ? c : Character.toLowerCase(c));
            }
            for (int slot = h & mask; entries[slot] != null; slot = (slot + 1) & mask) {
                Entry entry = entries[slot];
                if (hashes[slot] == h && entry.word.length() == to - from
                        && startsIgnoringCase(text, from, entry.word)) {
                    return entry;
                }
            }
            return null;
        }
    }

    private static double toolErrors(String text, double base) {
        double level = base;
        if ((text.contains("Traceback") || hasIndentedAtLine(text)) && STACK_TRACE.matcher(text).find()) {
            level += 0.4;
        }
        for (Map.Entry<String, Pattern> signal : ERROR_SIGNALS.entrySet()) {
            if (text.contains(signal.getKey()) && signal.getValue().matcher(text).find()) {
                level += 0.2;
            }
        }
        if (errorBeforeColon(text) && ERROR_COLON.matcher(text).find()) {
            level += 0.2;
        }
        return Math.min(MAX_SCORE, level);
    }

    /** Whether a line of {@code text} starts with white space and {@code "at "}, as a stack frame's line does. */
    private static boolean hasIndentedAtLine(String text) {
        for (int start = 0; start >= 0 && start < text.length(); ) {
            int i = start;
            while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
                i++;
            }
            if (i > start && text.startsWith("at ", i)) {
                return true;
            }
            int newline = text.indexOf('\n', start);
            start = newline < 0 ? -1 : newline + 1;
        }
        return false;
    }

    /** Whether some {@code :} of {@code text} follows the letters {@code error} in any case (JSON has many colons). */
    private static boolean errorBeforeColon(String text) {
        for (int colon = text.indexOf(':'); colon >= 0; colon = text.indexOf(':', colon + 1)) {
            if (colon >= 5 && text.regionMatches(true, colon - 5, "error", 0, 5)) {
                return true;
            }
        }
        return false;
    }
}
