package dev.workingmemory.dream;

import dev.workingmemory.MemoryKey;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.notes.Note;
import dev.workingmemory.store.FileWorkingMemoryStore;
import dev.workingmemory.testing.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 13, "Done when" 5: a JVM taking notes and dreaming is killed ({@code SIGKILL}) at random points until 20 dreams
 * committed; afterwards every note is either pending or consumed by a committed dream, never lost, never both.
 */
class DreamCrashTest {

    @Test
    void should_lose_no_note_and_apply_none_twice_when_killed_at_random_points_of_twenty_dreams(@TempDir Path root)
            throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        Set<Integer> acknowledged = new HashSet<>();
        int dreams = 0;
        int runs = 0;
        while (dreams < 20 && runs < 60) {
            try (ChildJvm child = ChildJvm.start(DreamCrashChild.class, root.toString(), String.valueOf(runs * 100_000))) {
                child.awaitLine("ready"::equals, Duration.ofSeconds(60));
                // a few dreams, then a kill at a random moment of what follows: a note, a dream, a commit
                for (int wait = 1 + random.nextInt(3); wait > 0; wait--) {
                    child.awaitLine(line -> line.startsWith("dreamed"), Duration.ofSeconds(60));
                }
                Thread.sleep(random.nextInt(300));
                child.kill();
                for (String line : child.printed()) {
                    if (line.startsWith("noted ")) {
                        acknowledged.add(Integer.parseInt(line.substring(6)));
                    } else if (line.equals("dreamed true")) {
                        dreams++;
                    }
                }
            }
            runs++;
        }
        assertThat(dreams).as("dreams committed in %d runs (seed %d)", runs, seed).isGreaterThanOrEqualTo(20);
        Thread.sleep(600); // the lease of a child killed in a dream expires

        FileWorkingMemoryStore store = new FileWorkingMemoryStore(root);
        try (WorkingMemoryProvider memories = DreamCrashChild.provider(root)) {
            memories.memory(DreamCrashChild.USER); // loading the user finishes a commit the last kill interrupted
            String key = MemoryKey.of(DreamCrashChild.USER).resourceStoreKey();
            assertThat(store.getDocument(key, DreamRecords.DOCUMENT).orElseThrow())
                    .doesNotContain("PENDING", "ROLLING_BACK");
            List<DreamRecord> history = memories.dreamEngine().history(DreamCrashChild.USER);
            assertThat(history).hasSizeGreaterThanOrEqualTo(dreams);
            assertThat(memories.dreamEngine().state(DreamCrashChild.USER)).contains(history.get(history.size() - 1).state());

            List<String> consumed = new ArrayList<>();
            history.forEach(record -> consumed.addAll(record.consumedNotes()));
            List<String> pending = store.notes(key);
            assertThat(consumed).doesNotHaveDuplicates();
            assertThat(pending).doesNotHaveDuplicates().doesNotContainAnyElementsOf(consumed);
            Set<String> consumedTexts = texts(consumed);
            Set<String> pendingTexts = texts(pending);
            for (int n : acknowledged) {
                String fact = DreamCrashChild.fact(n);
                assertThat(consumedTexts.contains(fact) || pendingTexts.contains(fact))
                        .as("acknowledged note %d is pending or consumed (seed %d)", n, seed).isTrue();
                assertThat(consumedTexts.contains(fact) && pendingTexts.contains(fact))
                        .as("note %d is not both pending and consumed (seed %d)", n, seed).isFalse();
            }
            System.out.printf("dream crash test: %d runs killed, %d dreams committed, %d notes acknowledged, %d consumed,"
                    + " %d pending%n", runs, dreams, acknowledged.size(), consumed.size(), pending.size());
        }
    }

    private static Set<String> texts(List<String> lines) {
        Set<String> texts = new HashSet<>();
        for (String line : lines) {
            texts.add(Note.parse(line).orElseThrow().text());
        }
        return texts;
    }
}
