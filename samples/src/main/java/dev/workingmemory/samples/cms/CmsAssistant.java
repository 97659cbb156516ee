package dev.workingmemory.samples.cms;

import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;

/**
 * The chatbot as {@code AiServices} builds it. The working memory block is merged into this system message
 * before every model call.
 */
interface CmsAssistant {

    String SYSTEM_PROMPT = """
            You are the assistant of a small website CMS. You change the site only through the cms_ tools and \
            never invent ids: every id comes from a tool result or from the working memory below.
            When the user says "it", "this page", "that image" or "the section", take the entity of that type \
            listed first among the working memory's entities (the most recent one). When the user names a page, use \
            the id listed next to that name. If a tool answers with "success":false, read its error and fix the \
            call or ask the user. Answer in one or two short sentences.""";

    @SystemMessage(SYSTEM_PROMPT)
    String chat(@MemoryId String memoryId, @UserMessage String message);
}
