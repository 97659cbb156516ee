package dev.workingmemory.tools;

/**
 * Preconditions of the tool beans' constructors: an {@link IllegalArgumentException} with a clear message.
 * Thread-safe (stateless).
 */
final class Checks {

    private Checks() {
    }

    static <T> T notNull(T value, String name) {
        if (value == null) {
            throw new IllegalArgumentException(name + " must not be null");
        }
        return value;
    }

    static void that(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
