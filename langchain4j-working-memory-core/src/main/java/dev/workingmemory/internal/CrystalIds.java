package dev.workingmemory.internal;

import java.util.HexFormat;

/**
 * The one way the memory names the crystals it makes: {@code <prefix>-<32 hex>}, the hex a SHA-256 of the crystal's
 * scope ({@link dev.workingmemory.MemoryKey#crystalScope()}) and of the parts that tell it apart within its scope
 * (a note's line, an exchange's thread and time, a tool output's cache entry, ...). The store's ids are unique across
 * scopes (adding an id again replaces the crystal, whatever its scope), so an id that did not hash its scope would
 * let one user's crystal replace another's.
 *
 * <p>The hashed text is the scope and each part, with {@code \} written {@code \\} and a line break {@code \n}, joined
 * by line breaks: two different lists of scope and parts never hash the same text, whatever characters they hold.
 * (For a scope and parts without backslashes or line breaks this is {@code scope + "\n" + part + ...}, the text the
 * ids of notes and past turns hashed before, so their ids did not change.) The hash is over UTF-16 code units
 * ({@link DirectoryNames#sha256Hex}), so unpaired surrogates stay apart too.
 *
 * <p>Thread-safe (stateless).
 */
public final class CrystalIds {

    /** The hex digits of the hash an id ends with. */
    static final int HASH_HEX = 32;

    private CrystalIds() {
    }

    /**
     * @param prefix what the crystal was made from, e.g. {@code note}; letters, digits and {@code -} only
     * @param scope  the crystal's scope
     * @param parts  what tells the crystal apart within its scope
     * @return {@code <prefix>-<32 hex>}
     */
    public static String of(String prefix, String scope, String... parts) {
        Ensure.that(isPrefix(prefix), () -> "prefix must be lower-case letters, digits and '-', was " + prefix);
        Ensure.notNull(scope, "scope");
        int chars = escapedLength(scope);
        for (String part : parts) {
            chars += 1 + escapedLength(Ensure.notNull(part, "part"));
        }
        // the escaped, joined text's UTF-16 code units written straight into the bytes hashed (past turns are named
        // on the request path: a StringBuilder of the text and then its bytes was a seventh of a chat turn)
        byte[] utf16 = new byte[2 * chars];
        int at = putEscaped(scope, utf16, 0);
        for (String part : parts) {
            at = put('\n', utf16, at);
            at = putEscaped(part, utf16, at);
        }
        return prefix + "-" + HexFormat.of().formatHex(DirectoryNames.sha256(utf16), 0, HASH_HEX / 2);
    }

    /** Checked without a regular expression: past turns are named on the request path. */
    private static boolean isPrefix(String prefix) {
        if (prefix == null || prefix.isEmpty()) {
            return false;
        }
        for (int i = 0; i < prefix.length(); i++) {
            char c = prefix.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-')) {
                return false;
            }
        }
        return true;
    }

    /** The length of {@code value} with each {@code \} and line break escaped. */
    private static int escapedLength(String value) {
        int length = value.length();
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\\' || c == '\n') {
                length++;
            }
        }
        return length;
    }

    /** Writes {@code value}'s code units big-endian from {@code at}, {@code \} as {@code \\}, a line break as {@code \n}. */
    private static int putEscaped(String value, byte[] out, int at) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> at = put('\\', out, put('\\', out, at));
                case '\n' -> at = put('n', out, put('\\', out, at));
                default -> at = put(c, out, at);
            }
        }
        return at;
    }

    private static int put(char c, byte[] out, int at) {
        out[at] = (byte) (c >>> 8);
        out[at + 1] = (byte) c;
        return at + 2;
    }
}
