/**
 * What a working memory reports as it works: {@link dev.workingmemory.event.WorkingMemoryListener} and its events.
 */
package dev.workingmemory.event;
