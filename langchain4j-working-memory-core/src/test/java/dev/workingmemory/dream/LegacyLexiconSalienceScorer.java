package dev.workingmemory.dream;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lexicon scorer as it was before it read words (issue 21): one regular expression per hormone and strength over
 * the whole text. Kept as the oracle of {@code LexiconSalienceScorerEquivalenceTest}. Thread-safe (stateless).
 */
final class LegacyLexiconSalienceScorer implements SalienceScorer {

    static final LegacyLexiconSalienceScorer INSTANCE = new LegacyLexiconSalienceScorer();

    static final int MAX_CHARS = 8_000;
    private static final double STRONG = 0.5;
    private static final double MILD = 0.25;
    private static final double INTENSITY_STEP = 0.15;
    /** One message never saturates a level: only a run of them does. */
    static final double MAX_SCORE = 0.9;

    private static final Pattern DOPAMINE_STRONG = cues(
            "finally (?:works|working|worked|work|fixed|solved|passing|passes|green)", "it works", "works now",
            "it(?:'s| is) working", "it worked", "break-?through", "nailed it", "solved it", "fixed it",
            "(?:all )?tests? (?:are |is )?(?:now )?(?:pass|passing|passed|green)", "build is green", "we did it",
            "shipped", "that did it", "eureka", "it's alive");
    private static final Pattern DOPAMINE_MILD = cues("great", "awesome", "amazing", "excellent", "perfect",
            "brilliant", "fantastic", "yay", "woo+-?hoo+", "hooray", "nice", "solved", "fixed", "works", "working",
            "passed", "success(?:ful|fully)?", "🎉", "🚀", "✅");
    private static final Pattern CORTISOL_STRONG = cues("frustrat\\w*", "still (?:failing|broken|not working|fails)",
            "does(?:n't| not) work", "not working", "keeps? (?:failing|crashing|breaking)", "wasted", "giving up",
            "fed up", "ugh+", "wtf", "argh+", "sick of", "hate (?:this|it)", "nothing works");
    private static final Pattern CORTISOL_MILD = cues("errors?", "fail(?:s|ed|ing|ure)?", "broken", "bugs?", "buggy",
            "stuck", "annoy(?:ing|ed)", "problems?", "crash(?:es|ed|ing)?", "wrong", "again", "confus(?:ed|ing)",
            "slow", "worse", "ridiculous");
    private static final Pattern OXYTOCIN_STRONG = cues("thank you so much", "thanks so much", "thanks a lot",
            "thank you very much", "you(?:'re| are) (?:the best|amazing|awesome|a lifesaver|great)",
            "(?:really|truly) appreciate(?: it)?", "grateful", "couldn't have done (?:it|this) without you",
            "love working with you", "life-?saver");
    private static final Pattern OXYTOCIN_MILD = cues("thank you", "thanks", "thx", "appreciated?", "glad",
            "pleasure", "kind of you", "friend", "trust you", "happy to");
    private static final Pattern INTENSIFIER = cues("so", "really", "very", "totally", "extremely", "absolutely",
            "super", "finally", "incredibly");
    private static final Pattern SHOUT = Pattern.compile("\\b\\p{Lu}{3,}\\b");

    private static final Pattern STACK_TRACE = Pattern.compile(
            "(?m)^\\s+at [\\w$.<>]+\\([^)]*\\)\\s*$|Traceback \\(most recent call last\\)");
    /** Error signals, each with a word it cannot match without: a plain search rules most texts out cheaply. */
    private static final Map<String, Pattern> ERROR_SIGNALS = Map.of(
            "ERROR", Pattern.compile("\\bERROR\\b"),
            "FAIL", Pattern.compile("\\bFAIL(?:ED|URE)\\b"),
            "FATAL", Pattern.compile("\\bFATAL\\b"),
            "Exception", Pattern.compile("\\wException\\b"));
    private static final Pattern ERROR_COLON = Pattern.compile("(?i)\\berror:");

    private LegacyLexiconSalienceScorer() {
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
        // the cues are lower case: matching them case-sensitively in a lower-cased copy is several times faster
        String lower = text.toLowerCase(Locale.ROOT);
        double intensity = intensity(text, lower) * factor;
        return new SalienceLevels(level(lower, DOPAMINE_STRONG, DOPAMINE_MILD, intensity),
                level(lower, CORTISOL_STRONG, CORTISOL_MILD, intensity),
                level(lower, OXYTOCIN_STRONG, OXYTOCIN_MILD, intensity));
    }

    private static double level(String text, Pattern strong, Pattern mild, double intensity) {
        Matcher m = strong.matcher(text);
        StringBuilder rest = null; // the text without its strong cues, made only when it has one
        int strongCount = 0;
        int last = 0;
        while (m.find()) { // a strong cue's words do not count again as mild cues
            strongCount++;
            if (rest == null) {
                rest = new StringBuilder(text.length());
            }
            rest.append(text, last, m.start()).append(' ');
            last = m.end();
        }
        CharSequence mildText = rest == null ? text : rest.append(text, last, text.length());
        int mildCount = (int) mild.matcher(mildText).results().count();
        return Math.min(MAX_SCORE, (strongCount * STRONG + mildCount * MILD) * intensity);
    }

    /** From {@code text} (shouting is upper case) and its lower-cased copy (the intensifier cues). */
    private static double intensity(String text, String lower) {
        long exclamations = text.chars().filter(c -> c == '!').count();
        double intensity = 1 + INTENSITY_STEP * Math.min(3, exclamations);
        if (INTENSIFIER.matcher(lower).find()) {
            intensity += INTENSITY_STEP;
        }
        if (SHOUT.matcher(text).find()) {
            intensity += INTENSITY_STEP;
        }
        return intensity;
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

    /** One pattern matching any of {@code cues} (lower case) as whole words of a lower-cased text. */
    private static Pattern cues(String... cues) {
        return Pattern.compile("(?<![\\p{L}\\p{N}'])(?:" + String.join("|", cues) + ")(?![\\p{L}\\p{N}])",
                0); // matched against lower-cased text
    }
}
