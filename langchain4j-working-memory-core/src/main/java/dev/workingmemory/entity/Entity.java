package dev.workingmemory.entity;

import dev.workingmemory.internal.Ensure;

/**
 * Something the agent has encountered in a tool result: a page, a section, an image, ...
 *
 * <p>Immutable and thread-safe.
 *
 * @param id   the identifier the tools use ({@code "page-123"}); never blank
 * @param name a human-readable name ({@code "About Us"}); falls back to the id when blank
 * @param type the category in singular form ({@code "page"}); never blank
 */
public record Entity(String id, String name, String type) {

    public Entity {
        Ensure.notBlank(id, "id");
        Ensure.notBlank(type, "type");
        if (name == null || name.isBlank()) {
            name = id;
        }
    }
}
