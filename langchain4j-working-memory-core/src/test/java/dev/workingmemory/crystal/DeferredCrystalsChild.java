package dev.workingmemory.crystal;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import dev.workingmemory.internal.DirectoryNames;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A process whose indexer never gets anywhere (its embedding model never answers): it adds crystals far beyond the
 * queue's bound, says so once they are all in the records ({@code recorded <n>}), and waits to be killed. Run by
 * {@link DeferredCrystalsTest}.
 */
public final class DeferredCrystalsChild {

    static final int CAPACITY = 100;
    static final List<String> SCOPES = List.of("alice", "bob", "carol");

    private DeferredCrystalsChild() {
    }

    static Crystal crystal(int i) {
        String scope = SCOPES.get(i % SCOPES.size());
        return CrystalStoreContract.note("c" + i, scope, "Crystal number " + i + " of " + scope + " mentions token"
                + i + "x");
    }

    static long recordedLines(Path directory) throws IOException {
        long lines = 0;
        for (String scope : SCOPES) {
            Path file = directory.resolve("crystals").resolve(DirectoryNames.of(scope)).resolve("crystals.jsonl");
            if (Files.exists(file)) {
                lines += Files.readAllLines(file).size();
            }
        }
        return lines;
    }

    public static void main(String[] args) throws Exception {
        Path directory = Path.of(args[0]);
        int count = Integer.parseInt(args[1]);
        CountDownLatch never = new CountDownLatch(1);
        EmbeddingModel stuck = new EmbeddingModel() {
            @Override
            public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
                try {
                    never.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                throw new IllegalStateException("never answers");
            }

            @Override
            public int dimension() {
                return 384;
            }
        };
        EmbeddedCrystalStore store = EmbeddedCrystalStore.builder().directory(directory).embeddingModel(stuck)
                .queueCapacity(CAPACITY).build();
        for (int i = 0; i < count; i++) {
            store.add(List.of(crystal(i)));
        }
        System.out.println("added " + count + ", waiting " + store.pendingCount());
        while (recordedLines(directory) < count) {
            Thread.sleep(20);
        }
        System.out.println("recorded " + count);
        never.await(); // until killed
    }
}
