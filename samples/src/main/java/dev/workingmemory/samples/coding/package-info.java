/**
 * The coding-agent sample: {@link dev.workingmemory.samples.coding.CodingAgent} fixes a failing test of a bundled
 * project with the coding tier of the working memory (pruned tool output, session slots, context pressure).
 */
package dev.workingmemory.samples.coding;
