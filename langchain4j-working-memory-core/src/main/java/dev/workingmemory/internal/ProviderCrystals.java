package dev.workingmemory.internal;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.store.embedding.EmbeddingStore;
import dev.workingmemory.crystal.Crystal;
import dev.workingmemory.crystal.CrystalHit;
import dev.workingmemory.crystal.CrystalQuery;
import dev.workingmemory.crystal.CrystalStore;
import dev.workingmemory.crystal.EmbeddedCrystalStore;
import dev.workingmemory.event.CrystalsDeferred;
import dev.workingmemory.event.CrystalsIndexed;
import dev.workingmemory.event.WorkingMemoryListener;
import dev.workingmemory.store.WorkingMemoryStoreException;
import org.apache.lucene.store.LockObtainFailedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.HashMap;
import java.util.Map;

/**
 * The crystal stores that providers open themselves ({@code EmbeddedCrystalStore}). In a directory (beside a file
 * store) there is one store per directory and JVM, shared by every provider opened on it and closed with the last of
 * them: an embedded store refuses a second instance on its directory, and providers of one JVM on one root must see
 * each other's crystals. When another process holds the directory, the provider falls back to a store in memory,
 * with a WARN saying what is lost. Without a directory each provider has its own store in memory.
 *
 * <p>Thread-safe.
 */
public final class ProviderCrystals {

    private static final Logger log = LoggerFactory.getLogger(ProviderCrystals.class);
    /** Guarded by the class. */
    private static final Map<Path, Shared> SHARED = new HashMap<>();

    private ProviderCrystals() {
    }

    private static final class Shared {
        final Path directory;
        final CrystalStore store;
        /** What the store was opened with (null: the defaults): a provider that wants another cannot share it. */
        final EmbeddingModel model;
        final EmbeddingStore<TextSegment> vectors;
        /** The listeners of the providers using the store, told of what its indexer indexes. */
        final List<WorkingMemoryListener> listeners;
        int users;

        Shared(Path directory, CrystalStore store, List<WorkingMemoryListener> listeners, EmbeddingModel model,
               EmbeddingStore<TextSegment> vectors) {
            this.directory = directory;
            this.store = store;
            this.listeners = listeners;
            this.model = model;
            this.vectors = vectors;
        }
    }

    /**
     * A crystal store for one provider, which closes it when done: in a directory, closing it releases the provider's
     * use of the store shared there (closed with its last user; closing twice does nothing).
     *
     * @param directory where to keep the crystals, or null to keep them in memory for this provider alone
     * @param model     the embedding model, or null for {@link DefaultEmbeddingModel}
     * @param vectors   where the vectors go, or null for the store's own index
     * @param listener  told of the crystals indexed (the provider's listeners)
     * @throws IllegalStateException when another provider of this JVM has the directory open with another embedding
     *                               model or embedding store
     */
    public static CrystalStore open(Path directory, EmbeddingModel model, EmbeddingStore<TextSegment> vectors,
                                    WorkingMemoryListener listener) {
        if (directory == null) {
            return build(null, model, vectors, listener);
        }
        Path key = directory.toAbsolutePath().normalize();
        synchronized (ProviderCrystals.class) {
            Shared shared = SHARED.get(key);
            if (shared == null) {
                List<WorkingMemoryListener> listeners = new CopyOnWriteArrayList<>();
                shared = new Shared(key, openIn(key, model, vectors, new WorkingMemoryListener() {
                    @Override
                    public void onCrystalsIndexed(CrystalsIndexed event) {
                        listeners.forEach(each -> each.onCrystalsIndexed(event));
                    }

                    @Override
                    public void onCrystalsDeferred(CrystalsDeferred event) {
                        listeners.forEach(each -> each.onCrystalsDeferred(event));
                    }
                }), listeners, model, vectors);
                SHARED.put(key, shared);
            } else if (shared.model != model || shared.vectors != vectors) {
                throw new IllegalStateException("Another WorkingMemoryProvider of this JVM keeps the crystals of " + key
                        + " with " + (shared.model != model ? "another embedding model" : "another embedding store")
                        + ": providers on one store share its crystals, so give them the same EmbeddingModel and"
                        + " EmbeddingStore instances (or none)");
            }
            shared.users++;
            Shared used = shared;
            used.listeners.add(listener);
            return new SharedUse(used, listener);
        }
    }

    private static void release(Shared shared) {
        synchronized (ProviderCrystals.class) {
            if (--shared.users > 0) {
                return;
            }
            SHARED.remove(shared.directory, shared);
        }
        shared.store.close();
    }

    private static CrystalStore openIn(Path directory, EmbeddingModel model, EmbeddingStore<TextSegment> vectors,
                                       WorkingMemoryListener listener) {
        try {
            return build(directory, model, vectors, listener);
        } catch (WorkingMemoryStoreException e) {
            if (!heldElsewhere(e)) {
                throw e;
            }
            log.warn("The crystals in {} are open in another process, so this one keeps its crystals in memory: the"
                    + " notes and past turns it indexes are searchable here until it closes, then gone (the notes"
                    + " themselves stay in the notes log); the other process's crystals are not found here, nor"
                    + " these there. Give each process its own store directory, or a shared CrystalStore.", directory);
            return build(null, model, vectors, listener);
        }
    }

    private static boolean heldElsewhere(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof LockObtainFailedException) {
                return true;
            }
        }
        return false;
    }

    private static CrystalStore build(Path directory, EmbeddingModel model, EmbeddingStore<TextSegment> vectors,
                                      WorkingMemoryListener listener) {
        return EmbeddedCrystalStore.builder()
                .listener(listener)
                .directory(directory)
                .embeddingModel(model != null ? model : DefaultEmbeddingModel.INSTANCE)
                .embeddingStore(vectors)
                .build();
    }

    /** One provider's use of a shared store: everything but {@link #close()} goes to the store. */
    private static final class SharedUse implements CrystalStore {
        private final Shared shared;
        private final WorkingMemoryListener listener;
        private boolean released;

        SharedUse(Shared shared, WorkingMemoryListener listener) {
            this.shared = shared;
            this.listener = listener;
        }

        @Override
        public void add(List<Crystal> crystals) {
            shared.store.add(crystals);
        }

        @Override
        public List<CrystalHit> search(CrystalQuery query) {
            return shared.store.search(query);
        }

        @Override
        public Optional<Crystal> get(String id) {
            return shared.store.get(id);
        }

        @Override
        public List<Crystal> recent(String scope, Instant after, int limit) {
            return shared.store.recent(scope, after, limit);
        }

        @Override
        public int count(String scope) {
            return shared.store.count(scope);
        }

        @Override
        public List<String> keywords(String crystalId, int max) {
            return shared.store.keywords(crystalId, max);
        }

        @Override
        public void delete(String scope, Collection<String> ids) {
            shared.store.delete(scope, ids);
        }

        @Override
        public void deleteScope(String scope) {
            shared.store.deleteScope(scope);
        }

        @Override
        public int pendingCount() {
            return shared.store.pendingCount();
        }

        @Override
        public synchronized void close() {
            if (!released) {
                released = true;
                shared.listeners.remove(listener);
                release(shared);
            }
        }
    }
}
