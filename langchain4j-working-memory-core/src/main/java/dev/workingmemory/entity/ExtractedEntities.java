package dev.workingmemory.entity;

import dev.workingmemory.internal.Ensure;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The entities of one tool result, with the heading each one's type is listed under in the block when the result
 * gives one: the key of a list in the API's own language ({@code {"verbindungen":[…]}} lists its records under
 * {@code verbindungen:}, not an English plural of their type).
 *
 * <p>Immutable, so thread-safe.
 *
 * @param entities the entities found, most relevant first
 * @param headings in the same order, one per entity: the heading its result gives its type, or {@code null} for the
 *                 type's English plural
 */
public record ExtractedEntities(List<Entity> entities, List<String> headings) {

    /** Nothing found. */
    public static final ExtractedEntities NONE = new ExtractedEntities(List.of(), List.of());

    /**
     * Copies both lists; {@code headings} may hold nulls.
     *
     * @throws IllegalArgumentException when a list or an entity is null, or the lists differ in size
     */
    public ExtractedEntities {
        Ensure.notNull(entities, "entities");
        Ensure.notNull(headings, "headings");
        entities.forEach(entity -> Ensure.notNull(entity, "entity"));
        if (entities.size() != headings.size()) {
            throw new IllegalArgumentException("one heading per entity: " + entities.size() + " entities, "
                    + headings.size() + " headings");
        }
        entities = List.copyOf(entities);
        headings = Collections.unmodifiableList(new ArrayList<>(headings));
    }

    /** {@code entities} with no heading of their own: each type is listed under its English plural. */
    public static ExtractedEntities withoutHeadings(List<Entity> entities) {
        Ensure.notNull(entities, "entities");
        return new ExtractedEntities(entities, Collections.nCopies(entities.size(), null));
    }
}
