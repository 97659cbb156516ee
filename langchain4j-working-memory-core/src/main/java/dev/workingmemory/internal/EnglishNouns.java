package dev.workingmemory.internal;

import java.util.HashMap;
import java.util.Map;

/**
 * Plural and singular of lower-case English nouns, as the block names entity types and session slots and as types are
 * read from keys and tool names ({@code line_items} → line_item). Deliberately simple: a few irregular nouns (people,
 * children, indices, quizzes; media, data, series, species and news stay as they are), then the spelling rules of
 * regular nouns on the word's end: {@code y} after a consonant ↔ {@code ies}; {@code s}, {@code x}, {@code z},
 * {@code ch}, {@code sh} + {@code es}; else + {@code s}. The irregular nouns are looked up by the last word of a
 * snake-case name. A word with a letter outside ASCII ({@code zamówienie}, {@code заказ}, {@code 注文}) is no English
 * noun: {@link #plural} gives it back as it is, since an English {@code s} on it is wrong in its own language and a
 * script without case such as Japanese has no plural suffix at all. {@link #singular} still drops an {@code s}
 * ({@code líneas} → línea): the languages that write one mostly make their plurals so.
 *
 * <p>Thread-safe (stateless).
 */
public final class EnglishNouns {

    /** Plural → singular. */
    private static final Map<String, String> IRREGULAR_PLURALS = Map.of(
            "people", "person",
            "children", "child",
            "indices", "index",
            "quizzes", "quiz",
            "media", "media",
            "data", "data",
            "series", "series",
            "species", "species",
            "news", "news");
    /** Singular → plural. */
    private static final Map<String, String> IRREGULAR_SINGULARS = inverse(IRREGULAR_PLURALS);

    private EnglishNouns() {
    }

    private static Map<String, String> inverse(Map<String, String> map) {
        Map<String, String> inverse = new HashMap<>();
        map.forEach((key, value) -> inverse.put(value, key));
        return Map.copyOf(inverse);
    }

    /**
     * {@code page} → pages, {@code entry} → entries, {@code box} → boxes, {@code person} → people; a word with a
     * letter outside ASCII as it is ({@code заказ} → заказ).
     */
    public static String plural(String noun) {
        if (!asciiLetters(noun)) {
            return noun;
        }
        String irregular = irregular(noun, IRREGULAR_SINGULARS);
        if (irregular != null) {
            return irregular;
        }
        int n = noun.length() - noun.lastIndexOf('_') - 1;
        if (n > 1 && noun.endsWith("y") && !isVowel(noun.charAt(noun.length() - 2))) {
            return noun.substring(0, noun.length() - 1) + "ies";
        }
        if (noun.endsWith("s") || noun.endsWith("x") || noun.endsWith("z") || noun.endsWith("ch")
                || noun.endsWith("sh")) {
            return noun + "es";
        }
        return noun + "s";
    }

    /**
     * {@code entries} → entry, {@code addresses} → address, {@code boxes} → box, {@code buzzes} → buzz,
     * {@code images} → image; a trailing {@code s} stays on a word ending in {@code ss}, {@code us} or {@code is}
     * ({@code status}, {@code analysis}).
     */
    public static String singular(String noun) {
        String irregular = irregular(noun, IRREGULAR_PLURALS);
        if (irregular != null) {
            return irregular;
        }
        int n = noun.length() - noun.lastIndexOf('_') - 1;
        if (n > 3 && noun.endsWith("ies")) {
            return noun.substring(0, noun.length() - 3) + "y";
        }
        if (n > 4 && (noun.endsWith("sses") || noun.endsWith("zzes") || noun.endsWith("ches")
                || noun.endsWith("shes"))) {
            return noun.substring(0, noun.length() - 2);
        }
        if (n > 3 && noun.endsWith("xes")) {
            return noun.substring(0, noun.length() - 2);
        }
        if (n > 1 && noun.endsWith("s") && !noun.endsWith("ss") && !noun.endsWith("us") && !noun.endsWith("is")) {
            return noun.substring(0, noun.length() - 1);
        }
        return noun;
    }

    /** @return the noun with its last snake-case word replaced as {@code words} says, or null when not listed */
    private static String irregular(String noun, Map<String, String> words) {
        int cut = noun.lastIndexOf('_') + 1;
        String word = words.get(noun.substring(cut));
        return word == null ? null : noun.substring(0, cut) + word;
    }

    /** Whether every letter of {@code word} is an ASCII letter. */
    private static boolean asciiLetters(String word) {
        for (int i = 0; i < word.length(); ) {
            int c = word.codePointAt(i);
            if (c >= 0x80 && Character.isLetter(c)) {
                return false;
            }
            i += Character.charCount(c);
        }
        return true;
    }

    private static boolean isVowel(char c) {
        return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u';
    }
}
