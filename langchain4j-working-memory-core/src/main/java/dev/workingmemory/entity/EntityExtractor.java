package dev.workingmemory.entity;

import java.util.List;

/**
 * Finds the entities a tool result mentions. Called for every {@code ToolExecutionResultMessage}
 * added to a working memory.
 *
 * <p>Implementations must be thread-safe, must not throw for any input (return an empty list
 * instead) and should be fast: they run on the caller's thread during {@code ChatMemory.add}.
 */
@FunctionalInterface
public interface EntityExtractor {

    /**
     * @param toolName   the name of the tool that produced the result; may be {@code null}
     * @param resultText the text of the result; may be {@code null} or not JSON at all
     * @return the entities found, most relevant first; never {@code null}
     */
    List<Entity> extract(String toolName, String resultText);

    /**
     * {@link #extract} with the heading each entity's type is listed under when the result gives one (see
     * {@link ExtractedEntities}); by default none, each type under its English plural. An extractor that wraps
     * {@link JsonEntityExtractor} passes its headings on by calling this method of it.
     *
     * @param toolName   the name of the tool that produced the result; may be {@code null}
     * @param resultText the text of the result; may be {@code null} or not JSON at all
     * @return the entities found and their headings; never {@code null}
     */
    default ExtractedEntities extractWithHeadings(String toolName, String resultText) {
        List<Entity> found = extract(toolName, resultText);
        return found == null || found.isEmpty() ? ExtractedEntities.NONE : ExtractedEntities.withoutHeadings(found);
    }
}
