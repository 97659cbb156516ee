package dev.workingmemory.context;

import dev.workingmemory.MemoryKey;
import dev.workingmemory.store.InMemoryWorkingMemoryStore;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How the tool-output cache names what it keeps. (That every store gives an output back exactly after a restart:
 * {@code StoredTextContract}.)
 */
class ToolOutputCacheTest {

    private static final MemoryKey KEY = MemoryKey.of("maya", "t1");

    @Test
    void should_keep_outputs_that_differ_only_in_an_unpaired_surrogate_apart() {
        ToolOutputCache cache = new ToolOutputCache(new InMemoryWorkingMemoryStore(), ToolOutputCacheConfig.defaults(),
                Clock.systemUTC());
        try {
            // a model that gives no call ids: the tool name and the text are all that tells two results apart
            String high = cache.keep(KEY, null, "bash", "exit \uD800");
            String low = cache.keep(KEY, null, "bash", "exit \uDC00");

            assertThat(high).isNotEqualTo(low);
            assertThat(cache.read(KEY, high)).contains("exit \uD800");
            assertThat(cache.read(KEY, low)).contains("exit \uDC00");
        } finally {
            cache.close();
        }
    }

    /**
     * An output is readable from the moment it is kept, while the writer thread stores the ones before it: the writer
     * once dropped the waiting outputs' map as it emptied it, with a newly kept output in it.
     */
    @Test
    void should_read_every_output_right_after_keeping_it_while_earlier_ones_are_written() {
        ToolOutputCache cache = new ToolOutputCache(new InMemoryWorkingMemoryStore(), ToolOutputCacheConfig.defaults(),
                Clock.systemUTC());
        try {
            for (int i = 0; i < 50_000; i++) {
                String text = "exit " + i;
                String name = cache.keep(KEY, null, "bash", text);

                assertThat(cache.read(KEY, name)).as("output %d", i).contains(text);
            }
        } finally {
            cache.close();
        }
    }

    /**
     * Two requests of one memory that keep the same output at once (the same call id, tool and text) can both read it
     * right away: the one that found the name given by the other once read before that other had put its text among
     * the waiting outputs, and found nothing.
     */
    @Test
    void should_read_an_output_kept_by_two_threads_at_once_right_after_keeping_it() throws Exception {
        ToolOutputCache cache = new ToolOutputCache(new InMemoryWorkingMemoryStore(), ToolOutputCacheConfig.defaults(),
                Clock.systemUTC());
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            int rounds = 20_000;
            CyclicBarrier together = new CyclicBarrier(2);
            List<Future<List<Integer>>> unread = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                unread.add(threads.submit(() -> {
                    List<Integer> missed = new ArrayList<>();
                    for (int i = 0; i < rounds; i++) {
                        together.await();
                        String text = "exit " + i;
                        String name = cache.keep(KEY, "call-" + i, "bash", text);
                        if (!cache.read(KEY, name).equals(Optional.of(text))) {
                            missed.add(i);
                        }
                    }
                    return missed;
                }));
            }
            for (Future<List<Integer>> missed : unread) {
                assertThat(missed.get()).as("rounds whose output was not readable right after keep").isEmpty();
            }
        } finally {
            threads.shutdownNow();
            cache.close();
        }
    }
}
