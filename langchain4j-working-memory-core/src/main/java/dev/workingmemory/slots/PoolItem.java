package dev.workingmemory.slots;

/**
 * An item of the session's pool with what its score is made of: {@code score = exp(-gamma * age) + mentions}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param content  the item's text
 * @param age      messages observed since the item was added or last repeated
 * @param mentions later messages that mentioned it
 * @param score    its relevance; items under the configured threshold are dropped
 */
public record PoolItem(String content, int age, int mentions, double score) {
}
