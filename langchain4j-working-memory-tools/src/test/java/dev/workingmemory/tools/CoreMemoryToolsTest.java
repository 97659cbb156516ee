package dev.workingmemory.tools;

import dev.langchain4j.model.chat.request.ChatRequest;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.blocks.CoreBlock;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.workingmemory.testing.ScriptedChatModel.systemText;
import static dev.workingmemory.tools.ToolTesting.assistant;
import static dev.workingmemory.tools.ToolTesting.lastToolResult;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code core_memory_update} and {@code core_memory_read} through real {@code AiServices} with a scripted model. */
class CoreMemoryToolsTest {

    @Test
    void should_replace_and_append_blocks_and_show_them_in_the_block_of_the_next_request() {
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("core_memory_update", "{\"block\": \"goal\", \"operation\": \"replace\", \"content\": \"Ship v2\"}")
                .thenCallTool("core_memory_update", "{\"block\": \"progress\", \"operation\": \"append\", \"content\": \"- [x] tests\"}")
                .thenCallTool("core_memory_update", "{\"block\": \"progress\", \"operation\": \"append\", \"content\": \"- [ ] deploy\"}")
                .thenAnswer("Saved.");
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();

        assistant(model, memories).chat("alice", "Our goal is to ship v2; tests are done.");

        List<ChatRequest> requests = model.requests();
        assertThat(systemText(requests.get(0))).doesNotContain("<core_memory>");
        assertThat(lastToolResult(requests.get(1))).isEqualTo("Replaced block 'goal' (7/1000 chars, 993 left).");
        assertThat(systemText(requests.get(1))).contains("<core_memory>\n<goal chars=\"7/1000\">Ship v2</goal>\n</core_memory>");
        assertThat(lastToolResult(requests.get(2))).isEqualTo("Appended to block 'progress' (11/2000 chars, 1989 left).");
        assertThat(lastToolResult(requests.get(3))).isEqualTo("Appended to block 'progress' (24/2000 chars, 1976 left).");
        assertThat(systemText(requests.get(3))).contains("<progress chars=\"24/2000\">- [x] tests\n- [ ] deploy</progress>");
        assertThat(memories.memory("alice").coreMemory().read("progress").content()).isEqualTo("- [x] tests\n- [ ] deploy");
    }

    @Test
    void should_match_block_and_operation_ignoring_case_and_spaces() {
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("core_memory_update", "{\"block\": \" Goal \", \"operation\": \" REPLACE\", \"content\": \"x\"}")
                .thenAnswer("ok");
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();

        assistant(model, memories).chat("bob", "goal x");

        assertThat(lastToolResult(model.lastRequest())).startsWith("Replaced block 'goal'");
        assertThat(memories.memory("bob").coreMemory().read("goal").content()).isEqualTo("x");
    }

    @Test
    void should_empty_a_block_replaced_with_empty_content() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        memories.memory("carol").coreMemory().replace("goal", "old goal");
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("core_memory_update", "{\"block\": \"goal\", \"operation\": \"replace\", \"content\": \"\"}")
                .thenAnswer("ok");

        assistant(model, memories).chat("carol", "drop the goal");

        assertThat(lastToolResult(model.lastRequest())).isEqualTo("Emptied block 'goal' (0/1000 chars, 1000 left).");
        assertThat(systemText(model.lastRequest())).doesNotContain("old goal");
    }

    @Test
    void should_read_every_block_with_its_size_empty_ones_included() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        memories.memory("dave").coreMemory().replace("goal", "Fix <b> tags & ship");
        ScriptedChatModel model = ScriptedChatModel.script()
                .thenCallTool("core_memory_read", "{}")
                .thenAnswer("ok");

        assistant(model, memories).chat("dave", "what is in core memory?");

        assertThat(lastToolResult(model.lastRequest())).isEqualTo("""
                Core memory blocks:
                <goal chars="19/1000">Fix &lt;b&gt; tags &amp; ship</goal>
                <progress chars="0/2000"></progress>
                <context chars="0/1500"></context>""");
    }

    @Test
    void should_refuse_to_build_without_core_memory() {
        assertThatThrownBy(() -> new CoreMemoryTools(WorkingMemoryProvider.builder().withoutCoreMemory().build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("without core memory");
        assertThat(WorkingMemoryTools.all(WorkingMemoryProvider.builder().withoutCoreMemory().build()))
                .doesNotHaveAnyElementsOfTypes(CoreMemoryTools.class);
    }

    @Test
    void should_write_only_through_the_bean_when_called_directly() {
        WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build();
        CoreMemoryTools tools = new CoreMemoryTools(memories);

        String answer = tools.coreMemoryUpdate("erin", "context", "append", "repo: acme/site");

        assertThat(answer).isEqualTo("Appended to block 'context' (15/1500 chars, 1485 left).");
        assertThat(memories.memory("erin").coreMemory().blocks())
                .extracting(CoreBlock::name, CoreBlock::content)
                .contains(org.assertj.core.groups.Tuple.tuple("context", "repo: acme/site"));
    }
}
