package dev.workingmemory.dream;

import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.notes.NotesConfig;
import dev.workingmemory.store.FileWorkingMemoryStore;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The child JVM of {@link DreamCrashTest}: takes notes for one user on a file store and dreams after every third, until
 * it is killed. Prints {@code noted <n>} once note n is durable and {@code dreamed <committed>} after each dream.
 */
public final class DreamCrashChild {

    static final String USER = "crash-user";

    private DreamCrashChild() {
    }

    static DreamConfig config() {
        return DreamConfig.builder().scheduled(false).timeout(Duration.ofMillis(400)).leaseTtl(Duration.ofMillis(500))
                .recordsKept(10_000).build();
    }

    static WorkingMemoryProvider provider(Path root) {
        return WorkingMemoryProvider.builder().store(new FileWorkingMemoryStore(root)).dreams(config())
                .notes(NotesConfig.builder().softLimit(100_000).hardLimit(200_000).build()).build();
    }

    static String fact(int n) {
        return "Fact number " + n + " about the crash project";
    }

    public static void main(String[] args) {
        WorkingMemoryProvider memories = provider(Path.of(args[0]));
        int first = Integer.parseInt(args[1]);
        System.out.println("ready");
        for (int n = first; ; n++) {
            memories.memory(USER).notes().note(fact(n), 0.7, null);
            System.out.println("noted " + n);
            if (n % 3 == 2) {
                System.out.println("dreamed " + memories.dream(USER).committed());
            }
        }
    }
}
