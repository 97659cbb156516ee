package dev.workingmemory.jdbc;

import dev.workingmemory.internal.Utf16;
import dev.workingmemory.store.WorkingMemoryStoreException;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * How Java strings are kept in {@code bytea} columns: in WTF-8, which is UTF-8 for every well-formed string and also
 * carries unpaired surrogates (each as its own three-byte sequence). PostgreSQL's {@code text} refuses NUL and the
 * driver's UTF-8 encoding replaces unpaired surrogates, yet a store returns exactly the string it was given.
 *
 * <p>Thread-safe (stateless).
 */
final class Texts {

    private Texts() {
    }

    static byte[] encode(String text) {
        if (!Utf16.hasUnpairedSurrogate(text)) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
        byte[] out = new byte[text.length() * 3];
        int n = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            int codePoint = c;
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                codePoint = Character.toCodePoint(c, text.charAt(++i));
            }
            n = put(out, n, codePoint);
        }
        return java.util.Arrays.copyOf(out, n);
    }

    static String decode(byte[] bytes) {
        if (!hasEncodedSurrogate(bytes)) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        StringBuilder out = new StringBuilder(bytes.length);
        int i = 0;
        while (i < bytes.length) {
            int lead = bytes[i] & 0xFF;
            int length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
            if (i + length > bytes.length) {
                throw new WorkingMemoryStoreException("A stored text is cut in the middle of a character");
            }
            int codePoint = length == 1 ? lead : lead & (0xFF >> (length + 1));
            for (int k = 1; k < length; k++) {
                codePoint = (codePoint << 6) | (bytes[i + k] & 0x3F);
            }
            out.appendCodePoint(codePoint);
            i += length;
        }
        return out.toString();
    }

    /** SHA-256 of the encoded text: a fixed-size primary key for texts of any length (keys, memory ids). */
    static byte[] hash(byte[] encoded) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(encoded);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }

    private static int put(byte[] out, int n, int codePoint) {
        if (codePoint < 0x80) {
            out[n++] = (byte) codePoint;
        } else if (codePoint < 0x800) {
            out[n++] = (byte) (0xC0 | codePoint >> 6);
            out[n++] = (byte) (0x80 | codePoint & 0x3F);
        } else if (codePoint < 0x10000) {
            out[n++] = (byte) (0xE0 | codePoint >> 12);
            out[n++] = (byte) (0x80 | codePoint >> 6 & 0x3F);
            out[n++] = (byte) (0x80 | codePoint & 0x3F);
        } else {
            out[n++] = (byte) (0xF0 | codePoint >> 18);
            out[n++] = (byte) (0x80 | codePoint >> 12 & 0x3F);
            out[n++] = (byte) (0x80 | codePoint >> 6 & 0x3F);
            out[n++] = (byte) (0x80 | codePoint & 0x3F);
        }
        return n;
    }

    /** Whether the bytes hold a surrogate's three-byte sequence (ED A0..BF ..), which UTF-8 forbids. */
    private static boolean hasEncodedSurrogate(byte[] bytes) {
        for (int i = 0; i + 1 < bytes.length; i++) {
            if ((bytes[i] & 0xFF) == 0xED && (bytes[i + 1] & 0xFF) >= 0xA0) {
                return true;
            }
        }
        return false;
    }
}
