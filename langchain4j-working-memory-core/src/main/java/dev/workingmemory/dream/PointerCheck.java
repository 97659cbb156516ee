package dev.workingmemory.dream;

import dev.workingmemory.internal.ContentWords;
import dev.workingmemory.internal.Ensure;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Checks that each crystal pointer of a synthesized state leads somewhere: its keywords, run through the memory
 * search, must retrieve something <em>about its topic</em>.
 *
 * <p><b>About its topic</b>: a hit is the pointer's source crystal, or its text shares a content word (compared by
 * stem, function words ignored) with the pointer's topic. The <b>source crystal</b> of a pointer is the candidate
 * crystal (from the dream input) that shares the most content words with the pointer's topic, at least one (ties: more
 * words shared with its keywords, then the more important, then the newer).
 *
 * <p>For each pointer, in order:
 * <ol>
 *   <li>{@link PointerOutcome.Action#KEPT} when its keywords retrieve a hit about its topic;</li>
 *   <li>otherwise {@link PointerOutcome.Action#REPAIRED} when it has a source crystal whose keywords (from the
 *   {@link KeywordSource}, or else the most specific content words of its text) retrieve a hit about the topic: the pointer
 *   keeps its topic with those keywords;</li>
 *   <li>otherwise {@link PointerOutcome.Action#DROPPED}.</li>
 * </ol>
 * The search function is the engine's {@code memory_search} for the resource; an exception from it propagates (the
 * dream fails and changes nothing).
 *
 * <p>Immutable and thread-safe when the search function and the keyword source are.
 */
public final class PointerCheck {

    private final Function<String, List<SearchHit>> search;
    private final KeywordSource keywordSource;
    private final int maxKeywords;

    private PointerCheck(Builder builder) {
        this.search = Ensure.notNull(builder.search, "search");
        this.keywordSource = builder.keywordSource;
        this.maxKeywords = builder.maxKeywords;
    }

    /** A builder of a check; a search function is required. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The result of checking a list of pointers.
     *
     * @param outcomes what the check did with each pointer, in the pointers' order
     */
    public record Result(List<PointerOutcome> outcomes) {

        /** Rejects a null list with an {@link IllegalArgumentException} and copies it. */
        public Result {
            outcomes = List.copyOf(Ensure.notNull(outcomes, "outcomes"));
        }

        /** The pointers to write back, in order: kept and repaired ones. */
        public List<CrystalPointer> pointers() {
            return outcomes.stream().flatMap(outcome -> outcome.kept().stream()).toList();
        }

        /** How many pointers the check gave {@code action}. */
        public long count(PointerOutcome.Action action) {
            return outcomes.stream().filter(outcome -> outcome.action() == action).count();
        }

        /** Whether every pointer was kept as it was. */
        public boolean unchanged() {
            return count(PointerOutcome.Action.KEPT) == outcomes.size();
        }
    }

    /**
     * Checks {@code pointers}; {@code candidates} are the crystals a pointer may have come from (the dream input's).
     */
    public Result check(List<CrystalPointer> pointers, List<DreamCrystal> candidates) {
        Ensure.notNull(pointers, "pointers");
        Ensure.notNull(candidates, "candidates");
        List<PointerOutcome> outcomes = new ArrayList<>(pointers.size());
        for (CrystalPointer pointer : pointers) {
            outcomes.add(check(pointer, candidates));
        }
        return new Result(outcomes);
    }

    private PointerOutcome check(CrystalPointer pointer, List<DreamCrystal> candidates) {
        Set<String> topic = ContentWords.stems(pointer.topic());
        Optional<DreamCrystal> source = source(pointer, candidates);
        String sourceId = source.map(DreamCrystal::id).orElse(null);
        Optional<SearchHit> hit = aboutTopic(pointer.keywords(), topic, sourceId);
        if (hit.isPresent()) {
            return new PointerOutcome(pointer, PointerOutcome.Action.KEPT, pointer,
                    "its keywords retrieve " + hit.get().crystalId());
        }
        if (source.isEmpty()) {
            return new PointerOutcome(pointer, PointerOutcome.Action.DROPPED, null,
                    "its keywords retrieve nothing about its topic and no crystal of the dream is about it");
        }
        List<String> words = keywordSource.keywords(sourceId, maxKeywords);
        if (words == null || words.isEmpty()) {
            words = ContentWords.keywords(source.get().text(), maxKeywords);
        }
        String keywords = String.join(" ", words.stream().map(w -> w.replace("`", "").strip())
                .filter(w -> !w.isEmpty()).limit(maxKeywords).toList());
        if (!keywords.isEmpty() && !keywords.equalsIgnoreCase(pointer.keywords())) {
            Optional<SearchHit> repaired = aboutTopic(keywords, topic, sourceId);
            if (repaired.isPresent()) {
                return new PointerOutcome(pointer, PointerOutcome.Action.REPAIRED,
                        new CrystalPointer(pointer.topic(), keywords),
                        "its keywords retrieve nothing about its topic; the keywords of " + sourceId + " retrieve "
                                + repaired.get().crystalId());
            }
        }
        return new PointerOutcome(pointer, PointerOutcome.Action.DROPPED, null, "neither its keywords nor those of "
                + sourceId + " retrieve anything about its topic");
    }

    private Optional<SearchHit> aboutTopic(String keywords, Set<String> topic, String sourceId) {
        List<SearchHit> hits = search.apply(keywords);
        if (hits == null) {
            return Optional.empty();
        }
        return hits.stream().filter(hit -> hit != null && (hit.crystalId().equals(sourceId)
                || ContentWords.shared(topic, ContentWords.stems(hit.text())) > 0)).findFirst();
    }

    /** The candidate sharing the most content words with the pointer's topic, at least one. */
    static Optional<DreamCrystal> source(CrystalPointer pointer, List<DreamCrystal> candidates) {
        Set<String> topic = ContentWords.stems(pointer.topic());
        Set<String> keywords = ContentWords.stems(pointer.keywords());
        Comparator<DreamCrystal> best = Comparator
                .comparingInt((DreamCrystal c) -> ContentWords.shared(topic, ContentWords.stems(c.text())))
                .thenComparingInt(c -> ContentWords.shared(keywords, ContentWords.stems(c.text())))
                .thenComparingDouble(DreamCrystal::importance)
                .thenComparing(DreamCrystal::time);
        return candidates.stream().filter(c -> ContentWords.shared(topic, ContentWords.stems(c.text())) > 0)
                .max(best);
    }

    /** Builds a {@link PointerCheck}. Not thread-safe. */
    public static final class Builder {

        private Function<String, List<SearchHit>> search;
        private KeywordSource keywordSource = KeywordSource.NONE;
        private int maxKeywords = 4;

        private Builder() {
        }

        /** The memory search of the resource: keywords to hits, best first. Required. */
        public Builder search(Function<String, List<SearchHit>> search) {
            this.search = Ensure.notNull(search, "search");
            return this;
        }

        /** Where repaired keywords come from; default none (the most specific content words of the crystal's text). */
        public Builder keywordSource(KeywordSource keywordSource) {
            this.keywordSource = Ensure.notNull(keywordSource, "keywordSource");
            return this;
        }

        /** The most keywords of a repaired pointer; default 4. */
        public Builder maxKeywords(int maxKeywords) {
            this.maxKeywords = Ensure.positive(maxKeywords, "maxKeywords");
            return this;
        }

        /** @throws IllegalArgumentException without a search function */
        public PointerCheck build() {
            return new PointerCheck(this);
        }
    }
}
