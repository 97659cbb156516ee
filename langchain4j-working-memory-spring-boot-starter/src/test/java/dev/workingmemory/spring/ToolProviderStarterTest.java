package dev.workingmemory.spring;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.service.tool.ToolProvider;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.spring.app.Assistant;
import dev.workingmemory.spring.app.CmsApplication;
import dev.workingmemory.testing.ScriptedChatModel;
import dev.workingmemory.tools.SlotTools;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code working-memory.tools.provider=true}: the application of {@code app} gets the memory's tools through one
 * {@code ToolProvider} bean, which {@code @AiService} wires by itself, and a CMS assistant is offered no session tools.
 */
@SpringBootTest(classes = CmsApplication.class, properties = {
        "working-memory.tools.provider=true",
        "spring.autoconfigure.exclude=org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration"})
@DirtiesContext
class ToolProviderStarterTest {

    @Autowired
    Assistant assistant;
    @Autowired
    ScriptedChatModel model;
    @Autowired
    WorkingMemoryProvider memories;
    @Autowired
    ApplicationContext context;

    @Test
    void should_offer_the_memorys_tools_through_one_tool_provider_bean_without_the_session_tools() {
        assertThat(context.getBeanNamesForType(ToolProvider.class))
                .containsExactly(WorkingMemoryToolsRegistrar.TOOL_PROVIDER);
        assertThat(context.getBeanNamesForType(SlotTools.class)).isEmpty();

        assistant.chat("alice", "Create a page called About Us");
        assistant.chat("alice", "Now add a hero section to it");

        for (ChatRequest request : model.requests()) {
            assertThat(request.toolSpecifications()).extracting(ToolSpecification::name)
                    .contains("createPage", "addSection", "working_memory_note", "core_memory_update", "memory_search")
                    .doesNotContain(SlotTools.WORKING_MEMORY_ADD, SlotTools.WORKING_MEMORY_CLEAR,
                            SlotTools.WORKING_MEMORY_CLEAR_SLOT, SlotTools.WORKING_MEMORY_REMOVE);
        }
        assertThat(memories.memory("alice").notes().notes()).extracting(note -> note.text())
                .containsExactly("The About Us page has a hero section");
    }
}
