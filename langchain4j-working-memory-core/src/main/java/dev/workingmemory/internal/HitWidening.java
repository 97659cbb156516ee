package dev.workingmemory.internal;

import dev.langchain4j.model.TokenCountEstimator;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.MemoryHit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The rest of a search's token budget spent on what surrounds its hits (issue 20): once the hits are chosen, a hit
 * shown as the window of its piece is shown whole first, then each hit is widened with the neighbouring passages of
 * its whole (the exchange, note or tool output it is a passage of), a passage on each side per round, best hit first
 * in each round, while their tokens fit what the hits left of the budget. A neighbour that is itself a hit of the
 * search is merged into the wider one (its text is not shown twice), unless one of the two is an earlier value of
 * another hit or the newer one.
 * So a chat of short turns gets whole exchanges back (a LoCoMo turn cut into two passages is found whole), and a long
 * chat, whose ten passages fill the budget, keeps its passages.
 *
 * <p>A widened hit keeps the id, time and score of the passage that was found; its text is the passages in their
 * order, one per line, and its tokens are counted again.
 *
 * <p>Thread-safe (stateless).
 */
final class HitWidening {

    private HitWidening() {
    }

    /**
     * @param hits     the chosen hits, best first, within {@code budget}
     * @param passages reads a crystal of the search's scope by id (empty when there is none)
     */
    static List<MemoryHit> widen(List<MemoryHit> hits, Function<String, Optional<Crystal>> passages,
                                 TokenCountEstimator estimator, int budget) {
        List<Wide> wides = new ArrayList<>(hits.size());
        Map<String, Wide> byId = new HashMap<>();
        int tokens = 0;
        for (MemoryHit hit : hits) {
            Wide wide = new Wide(hit);
            wides.add(wide);
            byId.put(hit.id(), wide);
            tokens += hit.tokens();
        }
        Set<String> marked = new HashSet<>();
        for (MemoryHit hit : hits) {
            if (hit.earlierThan() != null) {
                marked.add(hit.id());
                marked.add(hit.earlierThan());
            }
        }
        Set<Wide> done = new HashSet<>();
        while (done.size() < wides.size()) {
            for (Wide wide : wides) {
                if (done.contains(wide) || wide.merged) {
                    done.add(wide);
                    continue;
                }
                int before = tokens;
                tokens = wide.grow(byId, marked, passages, estimator, budget, tokens);
                if (tokens == before && !wide.grewByMerge) {
                    done.add(wide);
                }
                wide.grewByMerge = false;
            }
        }
        List<MemoryHit> widened = new ArrayList<>(hits.size());
        for (Wide wide : wides) {
            if (!wide.merged) {
                widened.add(wide.hit(estimator));
            }
        }
        return widened;
    }

    /** A hit as it widens: the passages from {@code first} to {@code last} of its whole. Confined to one search. */
    private static final class Wide {
        private final MemoryHit hit;
        private final String whole;
        private final int number;
        private final List<String> texts = new ArrayList<>();
        private int first;
        private int last;
        private boolean beforeEnded;
        private boolean afterEnded;
        private boolean merged;
        private boolean grewByMerge;
        private boolean wholeTried;

        Wide(MemoryHit hit) {
            this.hit = hit;
            this.whole = Passages.parentId(hit.id());
            this.number = number(hit.id(), whole);
            this.first = number;
            this.last = number;
            this.texts.add(hit.text());
            this.beforeEnded = number <= 0;
            this.afterEnded = number < 0;
        }

        private static int number(String id, String whole) {
            if (whole.equals(id)) {
                return -1;
            }
            try {
                return Integer.parseInt(id.substring(whole.length() + 1));
            } catch (NumberFormatException e) {
                return -1; // digits beyond an int: not a passage of ours
            }
        }

        /**
         * Shows the hit's piece whole when only its window was chosen ({@link HitChoice}), else adds the next passage
         * after, else before, when it fits; @return the tokens of all hits now
         */
        int grow(Map<String, Wide> byId, Set<String> marked, Function<String, Optional<Crystal>> passages, TokenCountEstimator estimator,
                 int budget, int tokens) {
            int shownWhole = whole(passages, estimator, budget, tokens);
            if (shownWhole >= 0) {
                return shownWhole;
            }
            if (!afterEnded) {
                int total = take(last + 1, true, byId, marked, passages, estimator, budget, tokens);
                if (total >= 0) {
                    return total;
                }
                afterEnded = true;
            }
            if (!beforeEnded) {
                int total = take(first - 1, false, byId, marked, passages, estimator, budget, tokens);
                if (total >= 0) {
                    return total;
                }
                beforeEnded = true;
            }
            return tokens;
        }

        /**
         * Shows the hit's piece whole in place of its window, once, when it fits.
         *
         * @return the tokens of all hits with the piece whole, or -1 when it is not shown whole (now)
         */
        private int whole(Function<String, Optional<Crystal>> passages, TokenCountEstimator estimator, int budget,
                          int tokens) {
            if (wholeTried || hit.text().indexOf('…') < 0) {
                return -1; // tried, or not cut: no read of the store for it
            }
            wholeTried = true;
            Optional<Crystal> crystal = passages.apply(hit.id());
            if (crystal.isEmpty() || !crystal.get().piece() || crystal.get().text().equals(hit.text())) {
                return -1;
            }
            int more = estimator.estimateTokenCountInText(crystal.get().text()) - hit.tokens();
            if (tokens + more > budget) {
                return -1;
            }
            texts.set(number < 0 ? 0 : number - first, crystal.get().text());
            return tokens + more;
        }

        /** @return the tokens of all hits with passage {@code n} taken, or -1 when it is not taken */
        private int take(int n, boolean after, Map<String, Wide> byId, Set<String> marked, Function<String, Optional<Crystal>> passages,
                         TokenCountEstimator estimator, int budget, int tokens) {
            if (n < 0 || (byId.get(id(n)) != null && tokens + 1 > budget)) {
                return -1;
            }
            String id = id(n);
            Wide other = byId.get(id);
            if (other != null) {
                if (other == this || other.merged || other.first != n || other.last != n
                        || marked.contains(other.hit.id())) {
                    return -1; // shown already, widened itself, or one of an earlier and a newer value: kept apart
                }
                // a hit of the search next to this one: one hit of the two, its tokens already counted (its
                // window shown whole first, when that fits)
                int total = other.whole(passages, estimator, budget, tokens + 1); // the line break between them
                other.merged = true;
                put(n, after, other.texts.get(0));
                grewByMerge = true;
                return total >= 0 ? total : tokens + 1;
            }
            Optional<Crystal> passage = passages.apply(id);
            if (passage.isEmpty()) {
                return -1;
            }
            String text = passage.get().text();
            int more = estimator.estimateTokenCountInText(text) + 1; // with the line break before it
            if (tokens + more > budget) {
                return -1;
            }
            put(n, after, text);
            byId.put(id, this);
            return tokens + more;
        }

        private String id(int n) {
            return Passages.id(whole, n);
        }

        private void put(int n, boolean after, String text) {
            if (after) {
                texts.add(text);
                last = n;
            } else {
                texts.add(0, text);
                first = n;
            }
        }

        MemoryHit hit(TokenCountEstimator estimator) {
            if (texts.size() == 1 && texts.get(0).equals(hit.text())) {
                return hit;
            }
            String text = String.join("\n", texts);
            return new MemoryHit(hit.id(), hit.kind(), hit.time(), text, hit.score(),
                    estimator.estimateTokenCountInText(text), hit.scores(), hit.earlierThan());
        }
    }
}
