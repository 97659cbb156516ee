package dev.workingmemory.slots;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What counts as a later mention of a pool item. An item's keys are the distinctive tokens of its text: file paths,
 * and identifiers ({@code OrderService}, {@code find_user}, {@code com.acme.Cart}, {@code TS2339},
 * {@code spring-boot-starter-web}). A message mentions the item when one of its identifiers appears in it as a whole
 * word, case-sensitively, or when it names one of its files in any form of the path ({@link FilePaths#sameFile}):
 * {@code scripts/report.py} is mentioned by {@code report.py}, {@code scripts/report.py} and
 * {@code /home/dev/app/scripts/report.py}, not by {@code tests/report.py}. An item with no such token (plain prose)
 * is mentioned only by its whole text, ignoring case. Ordinary words never count on their own: "fix the test" would
 * otherwise be mentioned by every message about tests.
 *
 * <p>Immutable and thread-safe.
 */
final class Mentions {

    private static final int MIN_KEY_CHARS = 4;
    private static final int MAX_PHRASE_CHARS = 80;
    /** How far back from a file's name a path is read: a bound on the work one message costs. */
    private static final int MAX_PATH_CHARS = 1_000;

    /** Case-sensitive identifiers. */
    private final List<String> keys;
    /** The segments of each file path of the item ({@link FilePaths#segments}). */
    private final List<List<String>> paths;
    /** The whole text in lower case when there are no keys, else {@code null}. */
    private final String phrase;

    private Mentions(List<String> keys, List<List<String>> paths, String phrase) {
        this.keys = keys;
        this.paths = paths;
        this.phrase = phrase;
    }

    static Mentions of(String content) {
        List<List<String>> paths = new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        for (String path : FilePaths.inProse(content)) {
            List<String> segments = FilePaths.segments(path);
            if (segments != null && !paths.contains(segments)) {
                paths.add(segments);
                names.add(segments.get(segments.size() - 1));
            }
        }
        Set<String> keys = new LinkedHashSet<>();
        for (String token : tokens(content)) {
            if (isIdentifier(token) && !names.contains(token)) { // a file's name counts as its path's form
                keys.add(token);
            }
        }
        keys.removeIf(key -> key.length() < MIN_KEY_CHARS);
        if (!keys.isEmpty() || !paths.isEmpty()) {
            return new Mentions(List.copyOf(keys), List.copyOf(paths), null);
        }
        String normalized = Texts.collapseWhitespace(content).toLowerCase(Locale.ROOT);
        return new Mentions(List.of(), List.of(), normalized.length() <= MAX_PHRASE_CHARS ? normalized : null);
    }

    /**
     * Whether the message text mentions the item.
     *
     * @param text      the message's text
     * @param lowerText the same in lower case (computed once per message for all items); may be {@code null} when
     *                  this item is not {@linkplain #byPhrase() matched by phrase}
     */
    boolean in(String text, String lowerText) {
        for (String key : keys) {
            if (Texts.containsWord(text, key)) {
                return true;
            }
        }
        for (List<String> path : paths) {
            if (namesFile(text, path)) {
                return true;
            }
        }
        return phrase != null && Texts.containsWord(lowerText, phrase);
    }

    /**
     * Whether {@code text} names the file at {@code path}: its file name as a whole word, with the directories written
     * before it (if any) those of the same file. A form shorter than {@value #MIN_KEY_CHARS} characters does not
     * count.
     */
    private static boolean namesFile(String text, List<String> path) {
        String name = path.get(path.size() - 1);
        for (int at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
            int end = at + name.length();
            if (end < text.length() && Texts.isWordChar(text.charAt(end))) {
                continue;
            }
            int start = at;
            while (start > 0 && at - start < MAX_PATH_CHARS && isPathChar(text.charAt(start - 1))) {
                start--;
            }
            if (start < at && !isSeparator(text.charAt(at - 1))) {
                continue; // the end of a longer name: "MyReport.py", "old-report.py"
            }
            String written = text.substring(start, end);
            List<String> segments = written.length() < MIN_KEY_CHARS ? null : FilePaths.segments(written);
            if (segments != null && FilePaths.sameFile(segments, path)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isPathChar(char c) {
        return Texts.isWordChar(c) || isSeparator(c) || c == '.' || c == '-' || c == '@' || c == '~';
    }

    private static boolean isSeparator(char c) {
        return c == '/' || c == '\\';
    }

    /** Whether the item is matched by its whole text, in lower case (it has no keys). */
    boolean byPhrase() {
        return phrase != null;
    }

    /** Tokens: runs of word characters and the joiners identifiers and coordinates use inside. */
    private static List<String> tokens(String text) {
        List<String> tokens = new ArrayList<>();
        int start = -1;
        for (int i = 0; i <= text.length(); i++) {
            char c = i < text.length() ? text.charAt(i) : ' ';
            boolean part = Texts.isWordChar(c) || c == '.' || c == '-' || c == '$' || c == ':';
            if (part && start < 0) {
                start = i;
            } else if (!part && start >= 0) {
                tokens.add(trimJoiners(text.substring(start, i)));
                start = -1;
            }
        }
        return tokens;
    }

    private static String trimJoiners(String token) {
        int begin = 0;
        int end = token.length();
        while (begin < end && ".-:$".indexOf(token.charAt(begin)) >= 0) {
            begin++;
        }
        while (end > begin && ".-:$".indexOf(token.charAt(end - 1)) >= 0) {
            end--;
        }
        return token.substring(begin, end);
    }

    /**
     * Whether a token looks like code rather than a word: camel humps ({@code OrderService}, {@code fetchUser}), an
     * underscore, a dot or colon between word characters ({@code com.acme.Cart}, {@code g:a}), letters and digits
     * mixed ({@code TS2339}), or two dashes ({@code spring-boot-starter}).
     */
    static boolean isIdentifier(String token) {
        if (token.length() < MIN_KEY_CHARS) {
            return false;
        }
        boolean letters = false;
        boolean digits = false;
        int dashes = 0;
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (Character.isLetter(c)) {
                letters = true;
            } else if (Character.isDigit(c)) {
                digits = true;
            } else if (c == '-') {
                dashes++;
            }
            if (i > 0) {
                char previous = token.charAt(i - 1);
                if (Character.isLowerCase(previous) && Character.isUpperCase(c)) {
                    return true;
                }
                if ((c == '_' || c == '.' || c == ':') && Character.isLetterOrDigit(previous)
                        && i + 1 < token.length() && Character.isLetterOrDigit(token.charAt(i + 1))) {
                    return !isNumber(token);
                }
            }
        }
        return letters && digits || dashes >= 2 && letters;
    }

    private static boolean isNumber(String token) {
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (!Character.isDigit(c) && c != '.' && c != ':') {
                return false;
            }
        }
        return true;
    }
}
