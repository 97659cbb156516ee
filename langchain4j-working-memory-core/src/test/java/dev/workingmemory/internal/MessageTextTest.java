package dev.workingmemory.internal;

import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.input.PromptTemplate;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.injector.DefaultContentInjector;
import dev.langchain4j.service.output.ServiceOutputParser;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MessageTextTest {

    private static final ImageContent IMAGE = ImageContent.from("aGVsbG8=", "image/png");

    @Test
    void should_read_the_text_parts_of_messages_with_images_one_per_line() {
        ToolExecutionResultMessage result = ToolExecutionResultMessage.builder().id("c1").toolName("browse")
                .contents(TextContent.from("{\"id\": \"page-9\"}"), IMAGE, TextContent.from("rendered")).build();

        assertThat(MessageText.of(result)).isEqualTo("{\"id\": \"page-9\"}\nrendered");
        assertThat(MessageText.of(ToolExecutionResultMessage.builder().id("c2").toolName("shot").contents(IMAGE).build()))
                .isEmpty();
        assertThat(MessageText.of(UserMessage.from(TextContent.from("What is this?"), IMAGE))).isEqualTo("What is this?");
        assertThat(MessageText.partsOtherThanText(result.contents())).isEqualTo(1);
        assertThat(MessageText.partsOtherThanText(null)).isZero();
    }

    @Test
    void should_say_what_the_user_said_without_what_ai_services_appended() {
        assertThat(MessageText.said(UserMessage.from("Plan a trip\nYou must answer strictly in the following JSON"
                + " format: {\n\"city\": (type: string)\n}"))).isEqualTo("Plan a trip");
        assertThat(MessageText.said(UserMessage.from("Reset it?\n\nAnswer using the following information:\nGo to"
                + " Settings.\nYou must answer strictly with one of these enums:\nYES\nNO"))).isEqualTo("Reset it?");
        // said in the user's own words, not on a line of its own after the message: kept
        assertThat(MessageText.said(UserMessage.from("You must answer strictly yes or no."))).isEqualTo(
                "You must answer strictly yes or no.");
        assertThat(MessageText.said(UserMessage.from("Hi"))).isEqualTo("Hi");
    }

    @Test
    void should_cut_what_langchain4j_itself_appends_as_this_version_words_it() {
        // the injector and the output parser of the LangChain4j on the class path, not a copy of their words
        UserMessage injected = (UserMessage) new DefaultContentInjector().inject(
                List.of(Content.from("Password resets are under Settings > Security.")),
                UserMessage.from("How do I reset my password?"));
        UserMessage formatted = UserMessage.from(injected.singleText()
                + new ServiceOutputParser().outputFormatInstructions(Thread.State.class));

        assertThat(injected.singleText()).contains("Settings > Security");
        assertThat(MessageText.said(injected)).isEqualTo("How do I reset my password?");
        assertThat(MessageText.said(formatted)).isEqualTo("How do I reset my password?");
    }

    @Test
    void should_read_what_a_template_puts_between_the_users_text_and_the_contents() {
        assertThat(MessageText.beforeContents(PromptTemplate.from("{{userMessage}}\n\nDocs:\n{{contents}}")))
                .isEqualTo("\n\nDocs:\n");
        // the contents or other text first: what fills {{userMessage}} cannot be told by a cut
        assertThat(MessageText.beforeContents(PromptTemplate.from("Docs:\n{{contents}}\n\nQ: {{userMessage}}")))
                .isEmpty();
        assertThat(MessageText.beforeContents(PromptTemplate.from("Q: {{userMessage}}\nDocs:\n{{contents}}")))
                .isEmpty();
    }
}
