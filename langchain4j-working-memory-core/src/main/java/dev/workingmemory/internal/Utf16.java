package dev.workingmemory.internal;

/**
 * Checks and cuts of Java strings as UTF-16. Thread-safe (stateless).
 */
public final class Utf16 {

    private Utf16() {
    }

    /**
     * Whether {@code text} holds a surrogate that is not half of a pair: such a string has no UTF-8 form (an encoder
     * replaces the surrogate, so two such strings may encode alike).
     */
    public static boolean hasUnpairedSurrogate(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return true;
            }
        }
        return false;
    }

    /** The first {@code max} characters of {@code text} (all of it when shorter), never ending in half a pair. */
    public static String prefix(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        return text.substring(0, max > 0 && Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max);
    }
}
