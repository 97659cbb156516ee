package dev.workingmemory.slots;

import java.util.Locale;

/**
 * Whether a tool result is a message a person wrote (a support ticket, an email, a forum post, a bug report form)
 * rather than a tool's own output. Such a message may quote a stack trace, a build's or an installer's output or a
 * snippet of code ("my nephew says this is the error:"), and it does so for a support desk as often as for a coding
 * agent: what it quotes is no evidence that the memory serves a coding agent ({@link CodingEvidence}).
 *
 * <p>The rule: at least {@value #PROSE_LINES} lines of prose, {@value #FIRST_PERSON_LINES} of them in the first person.
 * A line of prose starts at the line's first column with a letter and is at least {@value #MIN_WORDS} words, every one
 * a plain word (letters, inner apostrophes and hyphens, with punctuation around them; a dash or an emoji between
 * them is no word). A person writes so ("Since
 * yesterday every export fails on our account", "I need this working by Thursday"). A tool's sentences name what it
 * speaks of: a path, a flag, a version, a file ("We detected TypeScript in your project and created a tsconfig.json
 * file for you", "Run with --stacktrace option"); it indents what a person wrote ({@code git log}'s messages), leads
 * its other lines with paths, dates, levels or symbols, and seldom speaks as "I" or "we" (it says "you": "Did you
 * mean", "Your branch is up to date"). A line holding one of a build tool's own cues ({@code npm ERR!}) is the
 * tool's, never prose.
 *
 * <p>Thread-safe (stateless).
 */
final class PersonsMessage {

    static final int PROSE_LINES = 2;
    static final int FIRST_PERSON_LINES = 1;
    static final int MIN_WORDS = 6;
    private static final int NOT_PROSE = 0;
    private static final int PROSE = 1;
    private static final int FIRST_PERSON = 2;

    private PersonsMessage() {
    }

    /** @param text a tool result's text */
    static boolean is(String text) {
        int prose = 0;
        int firstPerson = 0;
        int start = 0;
        int length = text.length();
        while (start < length) {
            int end = Texts.lineEnd(text, start);
            int kind = kind(text, start, end);
            if (kind != NOT_PROSE) {
                prose++;
                if (kind == FIRST_PERSON) {
                    firstPerson++;
                }
                if (prose >= PROSE_LINES && firstPerson >= FIRST_PERSON_LINES) {
                    return true;
                }
            }
            start = end + 1;
        }
        return false;
    }

    /**
     * A tool result's text without what a document quotes: a document holds Markdown fences ({@code ```} or
     * {@code ~~~}) and a line of prose outside them, and what stands in its fences is quoted: a knowledge-base
     * article's snippet of an SDK or the error a customer may see, a blog post's code, a fetched README's example. A
     * person wrote it for readers, whoever reads it. A coding agent's tools give a file's code and a command's output
     * bare, or fenced with no prose around them.
     *
     * @param text a tool result's text
     * @return the lines outside the fences of a document; {@code text} itself when it is no document
     */
    static String unquoted(String text) {
        if (text.indexOf("```") < 0 && text.indexOf("~~~") < 0) {
            return text;
        }
        StringBuilder outside = new StringBuilder(text.length());
        boolean prose = false;
        boolean inFence = false;
        int start = 0;
        int length = text.length();
        while (start < length) {
            int end = Texts.lineEnd(text, start);
            int first = start;
            while (first < end && first - start < 3 && text.charAt(first) == ' ') { // Markdown: up to three spaces
                first++;
            }
            if (text.startsWith("```", first) || text.startsWith("~~~", first)) {
                inFence = !inFence;
            } else if (!inFence) {
                prose = prose || kind(text, start, end) != NOT_PROSE;
                outside.append(text, start, end).append('\n');
            }
            start = end + 1;
        }
        return prose ? outside.toString() : text;
    }

    /** What the line from {@code start} to {@code end} is: prose at the first column, not a tool's cue, or not. */
    private static int kind(String text, int start, int end) {
        if (end - start > CodingEvidence.MAX_LINE || start == end || !Character.isLetter(text.charAt(start))) {
            return NOT_PROSE;
        }
        String line = text.substring(start, end);
        return CodingEvidence.containsToolLine(line) ? NOT_PROSE : kind(line);
    }

    /** What the line is: not prose, prose, or prose in the first person. */
    private static int kind(String line) {
        int words = 0;
        int plain = 0;
        boolean firstPerson = false;
        int i = 0;
        int length = line.length();
        while (i < length) {
            while (i < length && Character.isWhitespace(line.charAt(i))) {
                i++;
            }
            int from = i;
            while (i < length && !Character.isWhitespace(line.charAt(i))) {
                i++;
            }
            if (from == i) {
                break;
            }
            if (isMark(line, from, i)) {
                continue; // a dash, an emoji, an arrow between words: neither a word nor a tool's token
            }
            words++;
            int first = from;
            int last = i;
            while (first < last && isPunctuation(line.charAt(first))) {
                first++;
            }
            while (last > first && isPunctuation(line.charAt(last - 1))) {
                last--;
            }
            if (first < last && isPlainWord(line, first, last)) {
                plain++;
                firstPerson |= isFirstPerson(line, first, last);
            }
        }
        if (words < MIN_WORDS || plain < words) {
            return NOT_PROSE;
        }
        return firstPerson ? FIRST_PERSON : PROSE;
    }

    /**
     * A plain word, perhaps in quotes or brackets, or ending a clause ({@code loaded,}); not a label ({@code error:}),
     * which a tool prints before a location ({@link CodingEvidence}'s test of a location named in a sentence).
     */
    static boolean isSentenceWord(String line, int from, int to) {
        while (from < to && "\"'(“‘".indexOf(line.charAt(from)) >= 0) {
            from++;
        }
        while (to > from && ",.;!?\"')”’".indexOf(line.charAt(to - 1)) >= 0) {
            to--;
        }
        return from < to && isPlainWord(line, from, to);
    }

    /** Letters, with apostrophes and hyphens between them. */
    private static boolean isPlainWord(String line, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = line.charAt(i);
            if (!Character.isLetter(c)) {
                boolean inner = i > from && i < to - 1 && (c == '\'' || c == '’' || c == '-');
                if (!inner) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * I, me, my, we, our, us and their contractions ({@code I'm}, {@code we've}); "US" in capitals is a country, and
     * a lower-case "i" is how people type "I" in a hurry.
     */
    private static boolean isFirstPerson(String line, int from, int to) {
        String word = line.substring(from, to).replace('’', '\'');
        int apostrophe = word.indexOf('\'');
        String base = apostrophe > 0 ? word.substring(0, apostrophe) : word;
        if (base.equals("US")) {
            return false;
        }
        return switch (base.toLowerCase(Locale.ROOT)) {
            case "i", "me", "my", "mine", "myself", "we", "our", "ours", "us", "ourselves" -> true;
            default -> false;
        };
    }

    /** Whether the token holds no letter and no digit ({@code -}, {@code —}, {@code ==}, an emoji). */
    private static boolean isMark(String line, int from, int to) {
        for (int i = from; i < to; i++) {
            if (Character.isLetterOrDigit(line.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isPunctuation(char c) {
        return ".,;:!?()\"'“”‘’[]".indexOf(c) >= 0;
    }
}
