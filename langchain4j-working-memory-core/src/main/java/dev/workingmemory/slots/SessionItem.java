package dev.workingmemory.slots;

import dev.workingmemory.internal.Ensure;

/**
 * One item of the session: its slot ({@code error}, {@code decision}, {@code todo}, {@code dependency}, a custom
 * slot, or {@code pool}) and its text.
 *
 * <p>Immutable and thread-safe.
 *
 * @param slot    the slot's name, or {@link SessionSlots#POOL}
 * @param content the item's text, not blank
 */
public record SessionItem(String slot, String content) {

    /** Rejects a blank {@code slot} or {@code content} with an {@link IllegalArgumentException}. */
    public SessionItem {
        Ensure.notBlank(slot, "slot");
        Ensure.notBlank(content, "content");
    }

    /** The same as the constructor. */
    public static SessionItem of(String slot, String content) {
        return new SessionItem(slot, content);
    }
}
