package dev.workingmemory.internal;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Takes the words that only make a text a question ("when did", "what is", "how would") out of a search query:
 * they appear in most crystals, so they add noise to the keyword scores and pull the query's vector towards
 * questions rather than towards what is asked about.
 *
 * <p>A word that may also be a name or a month ("Will", "May", "Can") is taken out only where it is written in lower
 * case, or capitalized as the first word of the query.
 *
 * <p>Thread-safe (stateless).
 */
public final class QueryWords {

    private static final Set<String> QUESTION_WORDS = Set.of("what", "when", "where", "who", "whom", "whose",
            "which", "why", "how", "did", "does", "do", "is", "are", "was", "were", "has", "have", "had", "would",
            "could", "should", "can", "will", "might", "may");
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}'’]+");

    private QueryWords() {
    }

    /** @return the query without its question words, spaces collapsed; the query itself when nothing else is left */
    public static String strip(String query) {
        StringBuilder kept = new StringBuilder(query.length());
        Matcher word = WORD.matcher(query);
        int from = 0;
        boolean first = true;
        boolean anyLeft = false;
        while (word.find()) {
            String text = word.group();
            String lower = text.toLowerCase(Locale.ROOT);
            boolean question = QUESTION_WORDS.contains(lower) && (text.equals(lower) || first);
            kept.append(query, from, word.start());
            if (!question) {
                kept.append(text);
                anyLeft = true;
            }
            from = word.end();
            first = false;
        }
        kept.append(query, from, query.length());
        return anyLeft ? kept.toString().replaceAll("\\s+", " ").trim() : query;
    }
}
