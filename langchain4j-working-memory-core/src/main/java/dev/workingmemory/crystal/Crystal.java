package dev.workingmemory.crystal;

import dev.workingmemory.internal.Ensure;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * One piece of long-term memory: a note, a past turn, a topic a dream moved out of the state, ... kept in a
 * {@link CrystalStore} and found again by meaning and by keyword.
 *
 * <p>Values are checked when the record is made: {@code id} and {@code scope} not blank and at most
 * {@value #MAX_ID_LENGTH} characters, each tag at most {@value #MAX_TAG_LENGTH}, {@code text} not blank, {@code importance}
 * within 0–1. A store also bounds
 * the length of {@code text} and {@code context} (see {@link EmbeddedCrystalStore.Builder#maxTextLength}). The
 * time is kept to the microsecond (finer digits are dropped) so that every store returns exactly what it was
 * given; {@code tags} are copied.
 *
 * <p>Immutable and thread-safe.
 *
 * @param id         unique within the store (across scopes): adding a crystal with the id of another replaces it
 * @param scope      whose memory it belongs to (the resource, e.g. a user); every search is confined to one scope
 * @param kind       what it was made from
 * @param time       when what it holds happened or was said
 * @param importance 0 (trivia) to 1 (essential)
 * @param tags       free labels, e.g. {@code decision}; may be empty, never null (null is taken as empty)
 * @param text       what a search returns
 * @param source     where it came from (a note, a message id, a file), or {@code null}
 * @param context    what surrounds {@code text} where it was said (e.g. the neighbouring passages of a past turn),
 *                   searched by keyword with less weight than {@code text} (not embedded) and never returned by a
 *                   search;
 *                   {@code null} when there is none
 */
public record Crystal(String id, String scope, CrystalKind kind, Instant time, double importance, List<String> tags,
                      String text, String source, String context) {

    /** The longest id and scope accepted. */
    public static final int MAX_ID_LENGTH = 1_000;
    /**
     * The longest tag accepted. A tag is one term of the index, and Lucene refuses a document with a term over 32,766
     * bytes every time it is given: one crystal with a 40,000-character tag (a tool's name, as a third-party tool
     * server names it) made the indexer that every user's crystals pass through retry its batch for ever. 1,000
     * characters are at most 3,000 bytes.
     */
    public static final int MAX_TAG_LENGTH = 1_000;
    /**
     * The tag of a crystal that gets no vector: it is found by its words (and its context's) only. Past turns give
     * it to the passages of a model's long answer after its first, whose vectors crowded the vector list with
     * elaborations of one answer (on BEAM's long chats recall_all@10 0.447 without their vectors, 0.436 with) and
     * were most of what a long chat had to embed. In the vector list it counts at the scope's mean (z-score 0, see
     * {@link CrystalRanking}): it ranks by its words, below crystals whose meaning matches as well and above those
     * whose vector is known to be far from the query. A store that cannot leave a crystal without a vector may embed
     * it.
     */
    public static final String KEYWORDS_ONLY = "keywords-only";
    /**
     * The tag of a crystal that is one piece of a longer text (a long message, note or tool output cut into passages)
     * and holds nothing else. A search may show such a hit as its window that answers, not whole, when it is longer
     * than its share of the token budget; its id reads it whole.
     */
    public static final String PIECE = "piece-of-longer-text";

    /**
     * Checks the values as the type's description says, drops the time's digits finer than a microsecond and copies
     * {@code tags}; a bad value is an {@link IllegalArgumentException}.
     */
    public Crystal {
        // messages made only on failure: crystals are made on the request path (past turns)
        Ensure.notBlank(id, "id");
        Ensure.that(id.length() <= MAX_ID_LENGTH, () -> "id must be at most " + MAX_ID_LENGTH + " characters, was "
                + id.length());
        Ensure.notBlank(scope, "scope");
        Ensure.that(scope.length() <= MAX_ID_LENGTH, () -> "scope must be at most " + MAX_ID_LENGTH
                + " characters, was " + scope.length());
        Ensure.notNull(kind, "kind");
        time = Ensure.notNull(time, "time").truncatedTo(ChronoUnit.MICROS);
        Ensure.that(importance >= 0 && importance <= 1, () -> "importance must be within 0 and 1, was " + importance);
        if (tags == null) {
            tags = List.of();
        } else {
            for (String tag : tags) {
                Ensure.that(Ensure.notNull(tag, "tag").length() <= MAX_TAG_LENGTH, () -> "a tag must be at most "
                        + MAX_TAG_LENGTH + " characters, was " + tag.length());
            }
            tags = List.copyOf(tags);
        }
        Ensure.notBlank(text, "text");
        Ensure.that(context == null || !context.isBlank(), "context must be null or not blank");
    }

    /** A crystal without context. */
    public Crystal(String id, String scope, CrystalKind kind, Instant time, double importance, List<String> tags,
                   String text, String source) {
        this(id, scope, kind, time, importance, tags, text, source, null);
    }

    /**
     * @return what is embedded: {@code text} alone. The vector stands for the passage a search returns; the context
     *         is searched by keyword only. A vector of text followed by context stood as much for the neighbours:
     *         on BEAM's long chats recall_all@10 was 0.397 with it, 0.436 without (LoCoMo's short turns 0.697 and
     *         0.688), and embedding the context doubled what the model reads per crystal.
     */
    public String textToIndex() {
        return text;
    }

    /** @return whether the crystal is tagged {@link #PIECE}: one piece of a longer text, nothing else */
    public boolean piece() {
        return tags.contains(PIECE);
    }

    /** @return whether the crystal is tagged {@link #KEYWORDS_ONLY}: found by keyword only, never embedded */
    public boolean keywordsOnly() {
        return tags.contains(KEYWORDS_ONLY);
    }
}
