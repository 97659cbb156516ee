package dev.workingmemory.spring.readme;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * The application of the starter's README, as written there: an {@code @AiService}, a tool and a chat model, and no
 * memory code. {@code ReadmeApplicationTest} runs it on the dependencies the README names.
 */
@SpringBootApplication
public class AssistantApplication {

    public static void main(String[] args) {
        SpringApplication.run(AssistantApplication.class, args);
    }

    @Bean
    ChatModel chatModel(@Value("${openai.base-url:https://api.openai.com/v1}") String baseUrl,
                        @Value("${openai.api-key}") String apiKey) {
        return OpenAiChatModel.builder().baseUrl(baseUrl).apiKey(apiKey).modelName("gpt-4o-mini").build();
    }
}
