package dev.workingmemory.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The content words of a text: what the dream's rules compare (a pointer's topic with a search hit, a note with an old
 * item), what fallback keywords are made of, and what the session compares a todo with a statement that it is done
 * by. A content word is a token of letters and digits with at least three
 * characters (two when it holds a digit, as in {@code v2}) that is not an English function word, contraction or
 * interjection. Text without spaces between words (Japanese, Chinese) is parted where the script changes (Han,
 * Hiragana, Katakana, Hangul), and a token of these scripts is a content word from two characters unless it is
 * Hiragana (particles and endings): {@code 京都、大阪、奈良を回る予定} gives 京都, 大阪, 奈良 and 予定. A Chinese
 * clause stays one token. Words are compared by
 * a light stem (lower case, a plural or {@code -ing}/{@code -ed}/{@code -ion} ending and a final {@code e} removed), so
 * that "migration" and "migrated", "tests" and "test", "move" and "moved" meet.
 *
 * <p>Thread-safe (stateless).
 */
public final class ContentWords {

    private static final Set<String> STOPWORDS = Set.of(
            "the", "and", "for", "are", "but", "not", "you", "your", "yours", "all", "any", "can", "had", "her", "hers",
            "was", "one", "our", "ours", "out", "has", "have", "him", "his", "how", "its", "may", "new", "now", "old",
            "see", "two", "way", "who", "did", "does", "doing", "done", "get", "got", "let", "put", "say", "says",
            "she", "too", "use", "used", "uses", "using", "with", "this", "that", "these", "those", "from", "they",
            "them", "their", "theirs", "then", "than", "there", "here", "what", "when", "where", "which", "while",
            "will", "would", "could", "should", "shall", "must", "might", "been", "being", "were", "into", "onto",
            "upon", "about", "above", "below", "after", "before", "again", "also", "just", "only", "very", "really",
            "some", "such", "more", "most", "much", "many", "each", "every", "other", "over", "under", "same", "own",
            "off", "yet", "why", "because", "until", "both", "few", "nor", "via", "per", "itself", "himself",
            "herself", "myself", "yourself", "themselves", "ourselves", "whom", "whose", "between", "through",
            "during", "without", "within", "against", "among", "like", "want", "wants", "wanted", "make", "makes",
            "made", "take", "takes", "took", "know", "knows", "thing", "things", "something", "anything", "nothing",
            "user", "users", "user's", "always", "never", "still", "even", "well", "back", "down", "ever",
            // contractions and interjections: a message's "I'm" or "Ugh" says nothing of its subject
            "i'm", "i've", "i'll", "i'd", "it's", "you're", "you've", "we're", "we've", "they're", "that's", "there's",
            "don't", "doesn't", "didn't", "can't", "won't", "isn't", "aren't", "wasn't", "let's", "hey", "hello",
            "yes", "yeah", "okay", "ugh", "wow", "please");

    private static final String[] SUFFIXES = {"ions", "ion", "ings", "ing", "edly", "ied", "ies", "ed", "es", "s"};

    private ContentWords() {
    }

    /** The content words of {@code text} as written (original case), in order, without repeats of a stem. */
    public static List<String> words(String text) {
        Map<String, String> byStem = new LinkedHashMap<>();
        for (String token : tokens(text)) {
            if (isContentWord(token)) {
                byStem.putIfAbsent(stem(token), token);
            }
        }
        return List.copyOf(byStem.values());
    }

    /** The stems of the content words of {@code text}, in order. */
    public static Set<String> stems(String text) {
        Set<String> stems = new LinkedHashSet<>();
        for (String token : tokens(text)) {
            if (isContentWord(token)) {
                stems.add(stem(token));
            }
        }
        return stems;
    }

    /** How many stems {@code a} and {@code b} share. */
    public static int shared(Set<String> a, Set<String> b) {
        int shared = 0;
        for (String stem : a) {
            if (b.contains(stem)) {
                shared++;
            }
        }
        return shared;
    }

    /**
     * Up to {@code max} keywords for a search that should find {@code text} again: its most specific content words, as
     * a crude stand-in for rarity — words with digits (ids, versions: {@code ABC-101}, {@code v2}) first, then the
     * longest — in the order they appear in the text.
     */
    public static List<String> keywords(String text, int max) {
        List<String> words = words(text);
        List<String> longest = new ArrayList<>(words);
        longest.sort(Comparator.comparing((String w) -> w.chars().noneMatch(Character::isDigit))
                .thenComparing(Comparator.comparingInt(String::length).reversed())); // stable among equals
        Set<String> chosen = Set.copyOf(longest.subList(0, Math.min(max, longest.size())));
        return words.stream().filter(chosen::contains).toList();
    }

    /** The tokens of letters and digits (apostrophes inside words kept), lower case. */
    public static List<String> tokens(String text) {
        List<String> tokens = new ArrayList<>();
        if (text == null) {
            return tokens;
        }
        int start = -1;
        int script = OTHER;
        for (int i = 0; i <= text.length(); i++) {
            char c = i < text.length() ? text.charAt(i) : ' ';
            boolean inWord = Character.isLetterOrDigit(c)
                    || (c == '\'' && start >= 0 && i + 1 < text.length() && Character.isLetter(text.charAt(i + 1)));
            int cScript = inWord ? cjkScript(c) : OTHER;
            if (cScript == ANY && start >= 0) {
                cScript = script; // コーヒー's ー, 々: part of the word they stand in
            } else if (cScript == ANY) {
                cScript = OTHER;
            }
            if (inWord && start >= 0 && cScript != script) {
                // Japanese writes no spaces: a change of script (Han 京都, Hiragana を, Katakana ホテル) parts words
                tokens.add(text.substring(start, i));
                start = -1;
            }
            if (inWord && start < 0) {
                start = i;
                script = cScript;
            } else if (!inWord && start >= 0) {
                tokens.add(text.substring(start, i));
                start = -1;
            }
        }
        return tokens;
    }

    private static final int OTHER = 0;
    private static final int HAN = 1;
    private static final int HIRAGANA = 2;
    private static final int KATAKANA = 3;
    private static final int HANGUL = 4;
    /** A letter of no script of its own (the common and inherited ones): it stays in the word it stands in. */
    private static final int ANY = 5;

    /** The CJK script of {@code c} that words of its own are made of, {@link #ANY}, or {@link #OTHER}. */
    private static int cjkScript(char c) {
        if (c < 0x1100) {
            return OTHER; // Latin, Cyrillic, Greek, ...: no look-up
        }
        return switch (Character.UnicodeScript.of(c)) {
            case HAN -> HAN;
            case HIRAGANA -> HIRAGANA;
            case KATAKANA -> KATAKANA;
            case HANGUL -> HANGUL;
            case COMMON, INHERITED -> ANY;
            default -> OTHER;
        };
    }

    public static boolean isContentWord(String token) {
        if (!token.isEmpty() && cjkScript(token.charAt(0)) != OTHER) {
            // two characters make most Chinese and Japanese words (京都, 病院, ホテル); a run of Hiragana is mostly the
            // particles and endings between them (を, には, でした)
            return token.length() >= 2 && cjkScript(token.charAt(0)) != HIRAGANA;
        }
        String lower = token.toLowerCase(Locale.ROOT);
        boolean hasDigit = lower.chars().anyMatch(Character::isDigit);
        if (lower.length() < (hasDigit ? 2 : 3) || STOPWORDS.contains(lower)) {
            return false;
        }
        return !lower.chars().allMatch(Character::isDigit) || lower.length() >= 3; // "404" and a year are words, "12" is not
    }

    /** "es" only after a hissing sound (fixes, matches), "s" not after "s" (class, status stay whole). */
    private static boolean removable(String word, String suffix) {
        if (suffix.equals("es")) {
            String base = word.substring(0, word.length() - 2);
            return base.endsWith("s") || base.endsWith("x") || base.endsWith("z") || base.endsWith("ch")
                    || base.endsWith("sh");
        }
        if (suffix.equals("s")) {
            return !word.endsWith("ss") && !word.endsWith("us") && !word.endsWith("is");
        }
        return true;
    }

    public static String stem(String token) {
        String word = token.toLowerCase(Locale.ROOT);
        if (word.endsWith("'s")) {
            word = word.substring(0, word.length() - 2);
        }
        for (String suffix : SUFFIXES) {
            if (word.endsWith(suffix) && word.length() - suffix.length() >= 3 && removable(word, suffix)) {
                word = word.substring(0, word.length() - suffix.length());
                if (suffix.equals("ies") || suffix.equals("ied")) {
                    word += "y";
                }
                break;
            }
        }
        // "move"/"moved", "issue"/"issues", "migrate"/"migration" meet without their final e
        if (word.length() > 3 && word.endsWith("e")) {
            word = word.substring(0, word.length() - 1);
        }
        // "debugging" → "debugg" → "debug"
        int n = word.length();
        if (n >= 4 && word.charAt(n - 1) == word.charAt(n - 2) && "aeiou".indexOf(word.charAt(n - 1)) < 0
                && word.charAt(n - 1) != 's' && word.charAt(n - 1) != 'l') {
            word = word.substring(0, n - 1);
        }
        return word;
    }
}
