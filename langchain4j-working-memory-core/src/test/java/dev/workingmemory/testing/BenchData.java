package dev.workingmemory.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The benchmark data of {@code shared/bench} (LoCoMo, BEAM), which is never copied into the repository: found in the
 * first ancestor of the working directory that has it, absent on a clone without it (CI).
 */
public final class BenchData {

    private BenchData() {
    }

    /**
     * @param relative a file or directory under the ancestor, e.g. {@code shared/bench/beam/1/chat.json}
     * @return its path, or empty when no ancestor of the working directory has it
     */
    public static Optional<Path> find(String relative) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.exists(dir.resolve(relative))) {
                return Optional.of(dir.resolve(relative));
            }
        }
        return Optional.empty();
    }
}
