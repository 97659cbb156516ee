package dev.workingmemory.internal;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.TokenCountEstimator;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TextPartsEstimatorTest {

    /** Counts a token per word, and calls {@code text()} as LangChain4j's estimators do. */
    private static final TokenCountEstimator WORDS = new TokenCountEstimator() {
        @Override
        public int estimateTokenCountInText(String text) {
            return text.isBlank() ? 0 : text.strip().split("\\s+").length;
        }

        @Override
        public int estimateTokenCountInMessage(ChatMessage message) {
            if (message instanceof ToolExecutionResultMessage result) {
                return 3 + estimateTokenCountInText(result.text());
            }
            if (message instanceof UserMessage user) {
                return 3 + estimateTokenCountInText(user.singleText());
            }
            throw new UnsupportedOperationException("only users and tools here");
        }

        @Override
        public int estimateTokenCountInMessages(Iterable<ChatMessage> messages) {
            int total = 3;
            for (ChatMessage message : messages) {
                total += estimateTokenCountInMessage(message);
            }
            return total;
        }
    };

    private static final ImageContent IMAGE = ImageContent.from("aGVsbG8=", "image/png");

    @Test
    void should_count_by_their_text_parts_the_messages_the_models_estimator_cannot_count() {
        TokenCountEstimator estimator = TextPartsEstimator.of(WORDS);
        ToolExecutionResultMessage shot = ToolExecutionResultMessage.builder().id("c1").toolName("browse")
                .contents(TextContent.from("the pricing page"), IMAGE).build();
        UserMessage photo = UserMessage.from(TextContent.from("what is this"), IMAGE);
        ToolExecutionResultMessage plain = ToolExecutionResultMessage.from("c2", "browse", "a b c d");

        assertThat(estimator.estimateTokenCountInMessage(plain)).isEqualTo(7); // the model's own count
        assertThat(estimator.estimateTokenCountInMessage(shot)).isEqualTo(3);
        assertThat(estimator.estimateTokenCountInMessage(photo)).isEqualTo(3);
        // one message it cannot count does not spoil the others' counts
        assertThat(estimator.estimateTokenCountInMessages(List.of(plain, shot))).isEqualTo(10);
        // what is not about contents is the model's to say
        assertThatThrownBy(() -> estimator.estimateTokenCountInMessage(SystemMessage.from("be brief")))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void should_leave_the_memorys_own_estimator_as_it_is() {
        assertThat(TextPartsEstimator.of(CharsPerTokenEstimator.INSTANCE)).isSameAs(CharsPerTokenEstimator.INSTANCE);
        TokenCountEstimator once = TextPartsEstimator.of(WORDS);
        assertThat(TextPartsEstimator.of(once)).isSameAs(once);
    }
}
