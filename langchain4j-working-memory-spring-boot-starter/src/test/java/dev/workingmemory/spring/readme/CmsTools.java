package dev.workingmemory.spring.readme;

import dev.langchain4j.agent.tool.Tool;
import org.springframework.stereotype.Component;

@Component
public class CmsTools {

    @Tool("Creates a CMS page")
    public String createPage(String title) {
        return "{\"page\":{\"id\":\"page-123\",\"title\":\"" + title + "\"}}";
    }
}
