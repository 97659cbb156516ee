package dev.workingmemory.context;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.workingmemory.WorkingMemoryProvider;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link ContextPressure#history()}: the level of each request over time, with the interventions. */
class PressureHistoryTest {

    private static String lines(int count, String prefix) {
        return IntStream.rangeClosed(1, count).mapToObj(i -> prefix + " line " + i + " " + "abcdefghij".substring(i % 10))
                .collect(Collectors.joining("\n"));
    }

    @Test
    void should_keep_the_pressure_of_each_request_with_its_interventions() {
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().contextWindow(1_500).maxMessages(100)
                .build()) {
            ChatMemory chat = memories.get("dev");
            for (int i = 0; i < 8; i++) {
                chat.add(UserMessage.from("go " + i));
                chat.add(AiMessage.from(ToolExecutionRequest.builder().id("c" + i).name("bash").arguments("{}").build()));
                chat.add(ToolExecutionResultMessage.from("c" + i, "bash", lines(45, "run " + i)));
                chat.add(AiMessage.from("done " + i));
                chat.messages();
            }

            ContextPressure pressure = memories.memory("dev").contextPressure();
            List<PressureSample> history = pressure.history();

            assertThat(history).hasSize(8);
            assertThat(history).extracting(PressureSample::level).contains(PressureLevel.SAFE, PressureLevel.HIGH);
            assertThat(history).filteredOn(PressureSample::intervened).hasSize(pressure.stats().interventions())
                    .allMatch(sample -> sample.outputsShortened() + sample.turnsEvicted() > 0);
            PressureSample last = history.get(history.size() - 1);
            assertThat(last.percent()).isEqualTo(pressure.stats().percent());
            assertThat(last.sentTokens()).isEqualTo(pressure.stats().sentTokens());
            assertThat(last.contextWindow()).isEqualTo(1_500);
            assertThat(history).isSortedAccordingTo((a, b) -> a.time().compareTo(b.time()));
        }
    }

    @Test
    void should_keep_the_last_hundred_requests() {
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().build()) {
            ChatMemory chat = memories.get("dev");
            chat.add(UserMessage.from("hi"));
            for (int i = 0; i < ContextPressure.HISTORY_SIZE + 20; i++) {
                chat.messages();
            }

            assertThat(memories.memory("dev").contextPressure().history()).hasSize(ContextPressure.HISTORY_SIZE);
        }
    }
}
