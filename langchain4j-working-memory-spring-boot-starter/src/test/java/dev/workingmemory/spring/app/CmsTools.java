package dev.workingmemory.spring.app;

import dev.langchain4j.agent.tool.Tool;
import org.springframework.stereotype.Component;

@Component
public class CmsTools {

    @Tool("Creates a CMS page")
    public String createPage(String title) {
        return "{\"page\":{\"id\":\"page-123\",\"title\":\"" + title + "\"}}";
    }

    @Tool("Adds a section to a page")
    public String addSection(String pageId, String kind) {
        return "{\"section\":{\"id\":\"sec-456\",\"heading\":\"Hero\"}}";
    }
}
