package dev.workingmemory.crystal;

import dev.workingmemory.crystal.RankFusion.Ranked;
import dev.workingmemory.crystal.RankFusion.Scored;
import org.apache.lucene.util.VectorUtil;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The vectors of one scope's crystals, searched by an exact scan: the similarity of every vector to the query, the
 * best as the list's top, and an evenly spread sample of them (in the order they were added, as the embedded store's
 * index samples its documents) for {@link RankFusion}'s standardization. Similarities are the cosine relevance
 * {@code (1 + cos) / 2}, as the embedded store's vector index scores; vectors are kept normalized, so a cosine is one
 * dot product.
 *
 * <p>Why a scan and not an HNSW graph: a graph must be built when a scope is loaded, and building one of 10,000
 * MiniLM-sized vectors took 21 to 34 s on the development machine, where scanning them takes about 3 ms.
 *
 * <p>Thread-safe: searches share a read lock, changes take the write lock.
 */
final class ScopeVectors {

    /** Per entry beside its floats: the array's header and reference, the key, the kind, the map's entry. */
    private static final int ENTRY_OVERHEAD = 16 + 8 + 8 + 1 + 64;

    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    /** Unit vectors, the first {@link #size} in use; guarded by {@link #lock}. */
    private float[][] vectors = new float[16][];
    private long[] keys = new long[16];
    private CrystalKind[] kinds = new CrystalKind[16];
    private final Map<Long, Integer> positions = new HashMap<>();
    private int size;
    private int dimension;

    /**
     * Adds the vector of a crystal, or replaces the one it had.
     *
     * @throws IllegalArgumentException when its dimension differs from the vectors already held
     */
    void put(long key, CrystalKind kind, float[] vector) {
        float[] unit = normalized(vector);
        lock.writeLock().lock();
        try {
            if (size == 0 || dimension == 0) {
                dimension = unit.length;
            } else if (unit.length != dimension) {
                throw new IllegalArgumentException("A vector of " + unit.length + " dimensions among vectors of "
                        + dimension + ": every crystal of a scope must be embedded by the same model");
            }
            Integer position = positions.get(key);
            if (position == null) {
                if (size == vectors.length) {
                    int capacity = size * 2;
                    vectors = Arrays.copyOf(vectors, capacity);
                    keys = Arrays.copyOf(keys, capacity);
                    kinds = Arrays.copyOf(kinds, capacity);
                }
                position = size++;
                positions.put(key, position);
            }
            vectors[position] = unit;
            keys[position] = key;
            kinds[position] = kind;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Removes the vector of a crystal, if there is one (the last vector takes its place). */
    void remove(long key) {
        lock.writeLock().lock();
        try {
            Integer position = positions.remove(key);
            if (position == null) {
                return;
            }
            int last = --size;
            if (position != last) {
                vectors[position] = vectors[last];
                keys[position] = keys[last];
                kinds[position] = kinds[last];
                positions.put(keys[position], position);
            }
            vectors[last] = null;
            kinds[last] = null;
        } finally {
            lock.writeLock().unlock();
        }
    }

    int size() {
        lock.readLock().lock();
        try {
            return size;
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The heap the vectors take, estimated. */
    long ramBytesUsed() {
        lock.readLock().lock();
        try {
            return (long) size * (4L * dimension + ENTRY_OVERHEAD) + 8L * vectors.length * 3;
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * @param query      the query's vector (any length but zero; normalized here)
     * @param max        how many of the best to return
     * @param kinds      the kinds to search; empty for all
     * @param sampleSize the most entries the sample scores
     * @return the best {@code max} vectors of these kinds, the sample's similarities, and how many vectors were scored
     * @throws IllegalArgumentException when the query's dimension is not that of the vectors
     */
    Ranked nearest(float[] query, int max, Set<CrystalKind> kinds, int sampleSize) {
        float[] unit = normalized(query);
        lock.readLock().lock();
        try {
            if (size == 0) {
                return Ranked.EMPTY;
            }
            if (unit.length != dimension) {
                throw new IllegalArgumentException("The query's vector has " + unit.length + " dimensions, the"
                        + " crystals' " + dimension + ": crystals and queries must be embedded by the same model");
            }
            float[] scores = new float[size];
            int[] matching = kinds.isEmpty() ? null : new int[size];
            int population = 0;
            // the k best in a heap whose head is the worst of them
            PriorityQueue<Integer> best = new PriorityQueue<>(max + 1,
                    (a, b) -> scores[a] != scores[b] ? Float.compare(scores[a], scores[b]) : Integer.compare(b, a));
            for (int i = 0; i < size; i++) {
                if (matching != null) {
                    if (!kinds.contains(this.kinds[i])) {
                        continue;
                    }
                    matching[population] = i;
                }
                population++;
                scores[i] = (1 + VectorUtil.dotProduct(unit, vectors[i])) / 2;
                if (best.size() < max) {
                    best.add(i);
                } else if (scores[i] > scores[best.peek()]) {
                    best.poll();
                    best.add(i);
                }
            }
            Scored[] top = new Scored[best.size()];
            for (int i = top.length - 1; i >= 0; i--) {
                int position = best.poll();
                top[i] = new Scored(keys[position], scores[position]);
            }
            int sampled = Math.min(sampleSize, population);
            List<Scored> sample = new ArrayList<>(sampled);
            for (int i = 0; i < sampled; i++) {
                int nth = (int) ((long) i * population / sampled);
                int position = matching == null ? nth : matching[nth];
                sample.add(new Scored(keys[position], scores[position]));
            }
            return new Ranked(List.of(top), sample, population);
        } finally {
            lock.readLock().unlock();
        }
    }

    private static float[] normalized(float[] vector) {
        if (vector.length == 0) {
            throw new IllegalArgumentException("A vector must have at least one dimension");
        }
        double norm = Math.sqrt(VectorUtil.dotProduct(vector, vector));
        float[] unit = new float[vector.length];
        if (norm > 0) {
            for (int i = 0; i < vector.length; i++) {
                unit[i] = (float) (vector[i] / norm);
            }
        }
        return unit;
    }
}
