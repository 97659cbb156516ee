package dev.workingmemory.samples.cms;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.entity.Entity;
import dev.workingmemory.store.FileWorkingMemoryStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CmsChatbotTest {

    private static final String REPLAY_ID = "replay-user";

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    private String output() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void should_print_every_turn_tool_call_and_answer_of_the_replay() {
        CmsChatbot.replay(out);

        assertThat(output())
                .contains("USER: Create a page called About Us")
                .contains("USER: Now add a hero section to it")
                .contains("USER: Find some images for the hero")
                .contains("USER: Create a Contact page too")
                .contains("USER: Go back to the About Us page and add a features section")
                .contains("TOOL CALL: cms_createPage({\"title\":\"About Us\"})")
                .contains("TOOL RESULT: {\"success\":true,\"page\":{\"id\":\"page-1\",\"title\":\"About Us\",\"slug\":\"about-us\"}}")
                .contains("TOOL CALL: cms_addSection({\"pageId\":\"page-1\",\"kind\":\"hero\",\"heading\":\"Hero\"})")
                .contains("TOOL CALL: cms_searchImages({\"query\":\"hero\"})")
                .contains("TOOL CALL: cms_setSectionImage({\"sectionId\":\"sec-1\",\"imageId\":\"img-1\"})")
                .contains("TOOL CALL: cms_createPage({\"title\":\"Contact\"})")
                .contains("TOOL CALL: cms_getPage({\"pageId\":\"page-1\"})")
                .contains("TOOL CALL: cms_addSection({\"pageId\":\"page-1\",\"kind\":\"features\",\"heading\":\"What we do\"})")
                .contains("ASSISTANT: Done: the page \"About Us\" exists now (page-1).")
                .contains("ASSISTANT: I added a hero section (sec-1) to \"About Us\".")
                .doesNotContain("TOOL FAILED")
                .doesNotContain("\"success\":false");
    }

    @Test
    void should_show_about_us_in_the_block_before_the_hero_section_turn() {
        CmsChatbot.replay(out);

        String output = output();
        int heroTurn = output.indexOf("USER: Now add a hero section to it");
        String beforeHeroTurn = output.substring(0, heroTurn);
        assertThat(beforeHeroTurn)
                .contains("<working_memory>")
                .contains("\"About Us\" (page-1)")
                .contains("</working_memory>");
        assertThat(output.substring(heroTurn))
                .contains("(scripted model: {{page}} = page-1, read from the working memory block)");
    }

    @Test
    void should_print_the_block_only_when_it_changed() {
        CmsChatbot.replay(out);

        // seven tool results change the block; the first request of each turn repeats the last one
        assertThat(output().split("WORKING MEMORY \\(changed", -1)).hasSize(1 + 7);
    }

    @Test
    void should_add_the_hero_section_to_page_1_in_the_cms() {
        CmsTools cms = CmsChatbot.replay(out);

        CmsTools.Page aboutUs = cms.page("page-1").orElseThrow();
        assertThat(aboutUs.title()).isEqualTo("About Us");
        assertThat(aboutUs.sections()).containsExactly(
                new CmsTools.Section("sec-1", "page-1", "hero", "Hero", "img-1"),
                new CmsTools.Section("sec-2", "page-1", "features", "What we do", null));
        assertThat(cms.page("page-2").orElseThrow().title()).isEqualTo("Contact");
        assertThat(cms.page("page-2").orElseThrow().sections()).isEmpty();
    }

    @Test
    void should_leave_the_entities_most_recent_first_in_the_working_memory() {
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().maxMessages(20).build()) {
            CmsChatbot.replay(out, memories);

            assertThat(memories.memory(REPLAY_ID).entities()).containsExactly(
                    new Entity("sec-2", "What we do", "section"),
                    new Entity("page-1", "About Us", "page"),
                    new Entity("page-2", "Contact", "page"),
                    new Entity("sec-1", "Hero", "section"),
                    new Entity("img-1", "hero.jpg", "image"),
                    new Entity("img-2", "hero-mountain.jpg", "image"),
                    new Entity("img-3", "hero-city.jpg", "image"));
        }
    }

    @Test
    void should_fail_the_replay_when_the_working_memory_tracks_no_entities() {
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().maxMessages(20).withoutEntities().build()) {
            assertThatThrownBy(() -> CmsChatbot.replay(out, memories))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("cannot resolve {{page");
        }
    }

    @Test
    void should_keep_the_working_memory_in_a_file_store(@TempDir Path dir) {
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder()
                .maxMessages(20).store(new FileWorkingMemoryStore(dir)).build()) {
            CmsChatbot.replay(out, memories);
        }

        try (WorkingMemoryProvider reopened = WorkingMemoryProvider.builder()
                .maxMessages(20).store(new FileWorkingMemoryStore(dir)).build()) {
            assertThat(reopened.memory(REPLAY_ID).entities())
                    .first().isEqualTo(new Entity("sec-2", "What we do", "section"));
            assertThat(reopened.memory(REPLAY_ID).render()).contains("\"About Us\" (page-1)");
        }
    }

    @Test
    void should_chat_line_by_line_until_exit_and_hand_tool_errors_back_to_the_model() {
        List<ChatRequest> requests = new ArrayList<>();
        ChatModel model = new ChatModel() {
            @Override
            public ChatResponse doChat(ChatRequest request) {
                requests.add(request);
                ChatMessage last = request.messages().get(request.messages().size() - 1);
                AiMessage answer;
                if (last instanceof ToolExecutionResultMessage result) {
                    answer = AiMessage.from("tool said: " + result.text());
                } else if (requests.size() == 1) {
                    answer = AiMessage.from(call("cms_createPage", "{\"title\":\"Home\"}"));
                } else {
                    answer = AiMessage.from(call("cms_addSection", "{\"pageId\":\"page-9\",\"kind\":\"hero\"}"));
                }
                return ChatResponse.builder().aiMessage(answer).build();
            }
        };
        BufferedReader in = new BufferedReader(new StringReader("Create a page called Home\n\nAdd a hero to page 9\nexit\nnever read\n"));

        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().maxMessages(20).build()) {
            CmsChatbot.chat(in, out, model, memories, "tester", true);
        }

        assertThat(requests).hasSize(4);
        assertThat(output())
                .contains("USER: Create a page called Home")
                .contains("TOOL CALL: cms_createPage({\"title\":\"Home\"})")
                .contains("\"Home\" (page-1)")
                .contains("USER: Add a hero to page 9")
                .contains("TOOL RESULT: {\"success\":false,\"error\":\"There is no page with id 'page-9'. Known pages: page-1 (\\\"Home\\\").")
                .contains("ASSISTANT: tool said: {\"success\":false")
                .doesNotContain("never read");
    }

    private static ToolExecutionRequest call(String name, String arguments) {
        return ToolExecutionRequest.builder().id("call-" + name).name(name).arguments(arguments).build();
    }
}
