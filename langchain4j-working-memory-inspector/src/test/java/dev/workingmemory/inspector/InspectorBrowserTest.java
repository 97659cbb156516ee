package dev.workingmemory.inspector;

import dev.workingmemory.dream.DreamGuard;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The page in a real headless Chromium (Debian's chromium and chromium-driver; skipped without them, saying how to run
 * it). The screenshot of the module README is the one {@link #should_show_the_block_the_rejecting_guard_the_removed_line_and_the_scores_of_a_hit}
 * takes: {@code -Dinspector.screenshot=docs/inspector.png} writes it there too.
 */
class InspectorBrowserTest {

    private static final String TOKEN = "correct-horse-battery-staple";

    private static String page(MemoryInspector inspector, String resource, String thread) {
        return inspector.url() + "#r=" + URLEncoder.encode(resource, StandardCharsets.UTF_8).replace("+", "%20")
                + "&t=" + URLEncoder.encode(thread, StandardCharsets.UTF_8).replace("+", "%20");
    }

    @Test
    void should_show_the_block_the_rejecting_guard_the_removed_line_and_the_scores_of_a_hit() throws IOException {
        try (HeadlessChromium chromium = HeadlessChromium.start();
             Scenario scenario = Scenario.build();
             MemoryInspector inspector = MemoryInspector.builder().provider(scenario.provider).port(0).build().start()) {
            chromium.driver.get(inspector.url());
            chromium.await(By.cssSelector("button.thread")).click();

            String block = scenario.provider.memory("alice").lastRequest().orElseThrow().block();
            assertThat(chromium.await(By.id("block"), "page-123").getText()).isEqualTo(block);
            assertThat(block).contains("<state", "<unsynthesized_notes>", "<core_memory>");
            assertThat(chromium.await(By.id("pause-pending")).getText())
                    .isEqualTo("pause pending: not in long-term memory yet");
            assertThat(chromium.await(By.id("layers")).getText()).contains("entities", "core_memory", "state");
            assertThat(chromium.await(By.id("tools-offered")).getText())
                    .isEqualTo("Tools offered with it (the memory names no other): bash, cms_createPage");
            assertThat(chromium.driver.findElements(By.cssSelector("#layers td.cut"))).isNotEmpty();
            WebElement rejected = chromium.await(By.cssSelector("article.dream[data-outcome='rejected']"));
            assertThat(rejected.findElement(By.cssSelector("tr.guard.failed")).getText())
                    .startsWith(DreamGuard.MISSING_SECTION.name()).contains("FAILED");
            WebElement committed = chromium.driver.findElements(By.cssSelector("article.dream[data-outcome='committed']"))
                    .get(0);
            assertThat(committed.findElements(By.cssSelector(".diff .del"))).extracting(WebElement::getText)
                    .contains("- " + Scenario.DROPPED_LINE);
            assertThat(chromium.await(By.cssSelector("#entities td.entity-name")).getText()).isEqualTo("About Us");
            assertThat(chromium.driver.findElements(By.cssSelector("#pressure-chart circle[class^='point-']")))
                    .hasSize(scenario.provider.memory("alice").contextPressure().history().size());
            assertThat(chromium.await(By.id("pending-notes")).getText()).contains(Scenario.PENDING_NOTE);

            chromium.driver.findElement(By.cssSelector("button.open-output")).click();
            assertThat(chromium.await(By.id("tool-output"), "test line 400").getText()).contains("test line 200");

            chromium.driver.findElement(By.id("search-q")).sendKeys("migration deadline");
            chromium.driver.findElement(By.id("search-go")).click();
            WebElement hit = chromium.await(By.cssSelector("#hits tr.hit"), "migration");
            dev.workingmemory.crystal.HitScores scores = scenario.provider.search(
                    dev.workingmemory.MemoryKey.of("alice"), "migration deadline", 10).get(0).scores();
            assertThat(hit.findElement(By.cssSelector(".score-fused")).getText())
                    .isEqualTo(String.format(java.util.Locale.ROOT, "%.4f", scores.fused()));
            assertThat(hit.findElement(By.cssSelector(".score-keyword")).getText())
                    .isEqualTo(String.format(java.util.Locale.ROOT, "%.4f", scores.keyword()));
            assertThat(hit.findElement(By.cssSelector(".score-vector")).getText())
                    .isEqualTo(String.format(java.util.Locale.ROOT, "%.4f", scores.vector()));
            assertThat(hit.findElement(By.cssSelector(".score-context")).getText())
                    .isEqualTo(Double.isNaN(scores.context()) ? "—" : String.format(java.util.Locale.ROOT, "%.4f", scores.context()));
            assertThat(hit.findElement(By.cssSelector(".hit-from")).getText()).isEqualTo("model"); // a note's words

            screenshot(chromium);
        }
    }

    private static void screenshot(HeadlessChromium chromium) throws IOException {
        chromium.driver.executeScript("window.scrollTo(0, 0)");
        byte[] png = chromium.driver.getScreenshotAs(OutputType.BYTES);
        Path target = Path.of("target", "inspector.png");
        Files.createDirectories(target.getParent());
        Files.write(target, png);
        String wanted = System.getProperty("inspector.screenshot");
        if (wanted != null && !wanted.isBlank()) {
            Files.write(Path.of(wanted), png);
        }
    }

    @Test
    void should_show_hostile_text_in_every_field_literally_and_run_none_of_it() {
        String id = "<img src=x onerror=\"window.__pwned='id'\">";
        String thread = "</script><script>window.__pwned='thread'</script>";
        String entity = "<svg onload=\"window.__pwned='entity'\"></svg>";
        String output = "<img src=x onerror=\"window.__pwned='output'\">";
        String stateLine = "- <img src=x onerror=\"window.__pwned='state'\"> & </pre><b>bold</b>";
        try (HeadlessChromium chromium = HeadlessChromium.start();
             Scenario scenario = Scenario.build(id, thread, entity, output, List.of(stateLine));
             MemoryInspector inspector = MemoryInspector.builder().provider(scenario.provider).port(0).token(TOKEN)
                     .build().start()) {
            String note = "<img src=x onerror=\"window.__pwned='note'\"><script>window.__pwned='note2'</script>";
            scenario.provider.memory(dev.workingmemory.MemoryKey.of(id, thread)).notes().note(note, 0.8, null);

            chromium.driver.get(page(inspector, id, thread));

            assertThat(chromium.await(By.id("resource-id"), "window.__pwned").getText()).contains(id, thread);
            assertThat(chromium.await(By.id("pending-notes"), "onerror").getText()).contains(note);
            assertThat(chromium.await(By.cssSelector("#entities td.entity-name")).getText()).isEqualTo(entity);
            assertThat(chromium.await(By.id("state"), "onerror").getText()).contains(stateLine.substring(2));
            assertThat(chromium.await(By.id("block"), "window.__pwned").getText()).contains("&lt;svg onload=");
            chromium.driver.findElement(By.cssSelector("button.open-output")).click();
            assertThat(chromium.await(By.id("tool-output"), "onerror").getText()).contains(output + " 400");
            assertThat(chromium.await(By.cssSelector("nav#users .id")).getText()).isEqualTo(id);

            assertThat(chromium.driver.executeScript("return window.__pwned === undefined")).isEqualTo(true);
            assertThat(chromium.driver.findElements(By.cssSelector("img, svg:not(.chart), b, script:not([src])")))
                    .isEmpty();
        }
    }

    @Test
    void should_open_a_user_whose_id_holds_an_unpaired_surrogate_from_the_list_and_after_a_reload() {
        String id = "sur\uD800rogate";
        // where the page sent U+FFFD for the surrogate (as URLSearchParams does), it would show this user instead
        String lookalike = "sur\uFFFDrogate";
        try (HeadlessChromium chromium = HeadlessChromium.start();
             dev.workingmemory.WorkingMemoryProvider memories = dev.workingmemory.WorkingMemoryProvider.builder()
                     .withoutCrystals().build();
             MemoryInspector inspector = MemoryInspector.builder().provider(memories).port(0).build().start()) {
            memories.memory(id).notes().note("A note of this user", 0.8, List.of());
            memories.memory(lookalike).notes().note("Another user's note", 0.8, List.of());
            memories.flush();

            chromium.driver.get(inspector.url());
            WebElement user = chromium.await(By.cssSelector("nav#users .user"), "sur\\uD800rogate");
            user.findElement(By.cssSelector("button.thread")).click();
            assertThat(chromium.await(By.id("resource-id"), "sur\\uD800rogate").getText()).doesNotContain(lookalike);
            assertThat(chromium.await(By.id("pending-notes"), "A note of this user").getText())
                    .doesNotContain("Another user's note");
            assertThat(chromium.driver.getCurrentUrl()).contains("sur%ED%A0%80rogate");

            chromium.driver.navigate().refresh(); // the id read back from the address
            assertThat(chromium.await(By.id("pending-notes"), "A note of this user").getText())
                    .doesNotContain("Another user's note");
        }
    }

    @Test
    void should_roll_back_only_with_the_token_and_show_the_state_before_on_reload() {
        try (HeadlessChromium chromium = HeadlessChromium.start();
             Scenario scenario = Scenario.build();
             MemoryInspector inspector = MemoryInspector.builder().provider(scenario.provider).port(0).token(TOKEN)
                     .build().start()) {
            String after = scenario.provider.dreamState("alice").orElseThrow();
            String before = scenario.provider.dreamHistory("alice").get(1).previousState();
            chromium.driver.get(page(inspector, "alice", "default"));

            chromium.await(By.cssSelector("button.rollback")).click();

            assertThat(chromium.await(By.id("status"), "refused").getText()).contains("token");
            assertThat(scenario.provider.dreamState("alice")).contains(after);
            assertThat(scenario.provider.dreamHistory("alice")).hasSize(2);

            chromium.driver.findElement(By.id("token")).sendKeys(TOKEN);
            chromium.await(By.cssSelector("button.rollback")).click();
            chromium.await(By.id("status"), "Rolled back");
            assertThat(scenario.provider.dreamState("alice")).contains(before);

            chromium.driver.navigate().refresh();

            assertThat(chromium.await(By.id("state"), Scenario.DROPPED_LINE.substring(2)).getText())
                    .doesNotContain("Deadline for the API migration is March 20th");
            assertThat(chromium.await(By.id("pending-notes"), "Deadline for the API migration").getText())
                    .contains(Scenario.PENDING_NOTE);
            assertThat(chromium.await(By.cssSelector("article.dream[data-outcome='rolled back']")).getText())
                    .contains("rolled back");
        }
    }
}
