package dev.workingmemory.dream;

import dev.langchain4j.model.TokenCountEstimator;
import dev.workingmemory.internal.Ensure;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Cuts a text into overlapping chunks of at most a number of tokens, counted by a {@link TokenCountEstimator}, at word
 * boundaries (seed 000's migration: 400 tokens with 80 of overlap). Each chunk is the longest run of words from its
 * start that the estimator counts within the size; the next starts at the longest tail of it within the overlap. A
 * single word over the size is a chunk of its own.
 *
 * <p>Immutable and thread-safe when the estimator is.
 */
final class TokenChunker {

    private static final Pattern WORD = Pattern.compile("\\S+\\s*");

    private final TokenCountEstimator estimator;
    private final int maxTokens;
    private final int overlapTokens;

    TokenChunker(TokenCountEstimator estimator, int maxTokens, int overlapTokens) {
        this.estimator = Ensure.notNull(estimator, "estimator");
        this.maxTokens = Ensure.positive(maxTokens, "maxTokens");
        this.overlapTokens = Ensure.notNegative(overlapTokens, "overlapTokens");
        Ensure.that(overlapTokens < maxTokens, "overlapTokens must be below maxTokens");
    }

    List<String> chunks(String text) {
        List<String> words = new ArrayList<>();
        Matcher matcher = WORD.matcher(text);
        while (matcher.find()) {
            words.add(matcher.group());
        }
        List<String> chunks = new ArrayList<>();
        int start = 0;
        while (start < words.size()) {
            int end = longestWithin(words, start, maxTokens);
            chunks.add(join(words, start, end));
            if (end == words.size()) {
                break;
            }
            int overlapStart = shortestTailStart(words, start, end);
            start = Math.max(start + 1, overlapStart);
        }
        return chunks;
    }

    /** The largest end such that words [start, end) fit in {@code limit} tokens; at least start + 1. */
    private int longestWithin(List<String> words, int start, int limit) {
        int low = start + 1;
        int high = words.size();
        while (low < high) { // the fit is monotone in end: binary search keeps the estimator calls few
            int mid = (low + high + 1) >>> 1;
            if (tokens(words, start, mid) <= limit) {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        return low;
    }

    /** The smallest index in (start, end] such that words [index, end) fit in the overlap. */
    private int shortestTailStart(List<String> words, int start, int end) {
        int low = start + 1;
        int high = end;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (tokens(words, mid, end) <= overlapTokens) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        return low;
    }

    private int tokens(List<String> words, int from, int to) {
        return estimator.estimateTokenCountInText(join(words, from, to));
    }

    private static String join(List<String> words, int from, int to) {
        StringBuilder text = new StringBuilder();
        for (int i = from; i < to; i++) {
            text.append(words.get(i));
        }
        return text.toString().strip();
    }
}
