package dev.workingmemory.internal;

import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import org.junit.jupiter.api.Test;

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
}
