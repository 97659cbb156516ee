/**
 * The companion sample: {@link dev.workingmemory.samples.companion.CompanionChatbot} remembers its user across
 * sessions days apart (notes, dreams into the state document, crystal pointers followed with {@code memory_search}),
 * replayed offline or live with an OpenAI-compatible model.
 */
package dev.workingmemory.samples.companion;
