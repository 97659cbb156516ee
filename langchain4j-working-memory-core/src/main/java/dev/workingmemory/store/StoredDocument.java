package dev.workingmemory.store;

import dev.workingmemory.internal.Ensure;

import java.util.regex.Pattern;

/**
 * A document of a store key: its name and its size in bytes ({@link dev.workingmemory.internal.Wtf8 WTF-8}: UTF-8, and
 * three bytes for an unpaired surrogate, as the file and JDBC stores keep it).
 *
 * <p>Immutable and thread-safe.
 *
 * @param name  the document's name (see {@link #checkName})
 * @param bytes its size in WTF-8 bytes; 0 or more
 */
public record StoredDocument(String name, long bytes) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

    /** Rejects a bad name (see {@link #checkName}) or negative {@code bytes} with an {@link IllegalArgumentException}. */
    public StoredDocument {
        checkName(name);
        Ensure.that(bytes >= 0, "bytes must not be negative, was " + bytes);
    }

    /**
     * Rejects a name that is not 1 to 128 letters, digits, {@code .}, {@code -} and {@code _} starting with a letter
     * or digit, or that the file store uses for itself ({@code state.json}, {@code scratch.md}, {@code key.json},
     * {@code messages.jsonl}, names ending in {@code .tmp} or holding {@code .corrupt-}).
     *
     * @return the name
     */
    public static String checkName(String name) {
        Ensure.notNull(name, "name");
        Ensure.that(NAME.matcher(name).matches(), "A document name is 1 to 128 letters, digits, '.', '-' and '_',"
                + " starting with a letter or digit; was '" + name + "'");
        String lower = name.toLowerCase(java.util.Locale.ROOT);
        Ensure.that(!lower.equals("state.json") && !lower.equals("scratch.md") && !lower.equals("key.json")
                && !lower.equals("messages.jsonl") && !lower.endsWith(".tmp") && !lower.contains(".corrupt-"),
                "The document name '" + name
                + "' is reserved by the store");
        return name;
    }
}
