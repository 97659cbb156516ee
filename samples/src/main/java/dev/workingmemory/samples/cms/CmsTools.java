package dev.workingmemory.samples.cms;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A small in-memory CMS exposed to the model as {@code @Tool}s: pages, their sections and an image library.
 *
 * <p>The tools answer with JSON shaped like the results in the entity tracking seed, which is what lets the
 * working memory pick up the entities they mention:
 * <pre>{@code
 * cms_createPage("About Us")       -> {"success":true,"page":{"id":"page-1","title":"About Us","slug":"about-us"}}
 * cms_addSection("page-1", "hero", "Hero")
 *                                  -> {"success":true,"section":{"id":"sec-1","pageId":"page-1","kind":"hero","heading":"Hero"}}
 * cms_searchImages("hero")         -> {"success":true,"query":"hero","matches":[{"id":"img-1","filename":"hero.jpg"},…]}
 * }</pre>
 *
 * <p>Ids come from counters ({@code page-1, page-2, …}, {@code sec-1, …}); the image library is fixed
 * ({@code img-1 … img-7}), so a conversation always produces the same ids. Bad input (an unknown page id, a
 * blank title, an unknown section kind, …) does not throw: the tool returns
 * {@code {"success":false,"error":"…"}} with a message that tells the model what to do instead.
 *
 * <p>Thread-safe: every tool method is synchronized.
 */
public final class CmsTools {

    /** The kinds of section {@link #addSection} accepts. */
    public static final Set<String> SECTION_KINDS =
            Set.of("hero", "features", "text", "gallery", "testimonials", "contact", "cta");

    private static final int MAX_MATCHES = 10;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A page of the CMS. */
    public record Page(String id, String title, String slug, List<Section> sections) {
    }

    /** A section of a page; {@code imageId} is {@code null} until an image is set. */
    public record Section(String id, String pageId, String kind, String heading, String imageId) {
    }

    /** An image of the library. */
    public record Image(String id, String filename, String alt, List<String> tags) {
    }

    private final Map<String, MutablePage> pages = new LinkedHashMap<>();
    private final Map<String, MutableSection> sections = new LinkedHashMap<>();
    private final List<Image> images = List.of(
            new Image("img-1", "hero.jpg", "Our team on the office rooftop", List.of("hero", "team", "banner")),
            new Image("img-2", "hero-mountain.jpg", "A mountain range at dawn", List.of("hero", "landscape", "mountain")),
            new Image("img-3", "hero-city.jpg", "The city skyline at night", List.of("hero", "city", "banner")),
            new Image("img-4", "team-hero-wide.jpg", "The whole team, wide shot", List.of("hero", "team")),
            new Image("img-5", "office.jpg", "The open-plan office", List.of("office", "team")),
            new Image("img-6", "contact-map.png", "A map to our office", List.of("contact", "map")),
            new Image("img-7", "features-icons.svg", "Feature icons", List.of("features", "icons")));
    private int pageCounter;
    private int sectionCounter;

    /** Creates a page with a unique slug derived from its title. */
    @Tool(name = "cms_createPage", value = "Creates a page and returns it with its id. Page titles must be unique.")
    public synchronized String createPage(@P(name = "title", value = "the page title, e.g. About Us") String title) {
        if (title == null || title.isBlank()) {
            return error("The title is empty. Ask the user for a page title.");
        }
        String cleanTitle = title.strip();
        String slug = slugOf(cleanTitle);
        if (slug.isEmpty()) {
            return error("The title '" + cleanTitle + "' has no letters or digits to make a URL slug from. Ask for another title.");
        }
        for (MutablePage page : pages.values()) {
            if (page.slug.equals(slug)) {
                return error("A page with the slug '" + slug + "' already exists: " + page.id + " (\"" + page.title
                        + "\"). Use that page, or ask the user for a different title.");
            }
        }
        MutablePage page = new MutablePage("page-" + (++pageCounter), cleanTitle, slug);
        pages.put(page.id, page);
        ObjectNode result = success();
        result.set("page", pageSummary(page));
        return write(result);
    }

    /** Fetches a page with its sections. */
    @Tool(name = "cms_getPage", value = "Fetches a page by its id, with its sections.")
    public synchronized String getPage(@P(name = "pageId", value = "the page id, e.g. page-1") String pageId) {
        MutablePage page = pages.get(strip(pageId));
        if (page == null) {
            return unknownPage(pageId);
        }
        ObjectNode result = success();
        ObjectNode node = pageSummary(page);
        ArrayNode list = node.putArray("sections");
        page.sectionIds.forEach(id -> list.add(sectionNode(sections.get(id))));
        result.set("page", node);
        return write(result);
    }

    /** Lists every page, oldest first. */
    @Tool(name = "cms_listPages", value = "Lists all pages with their ids.")
    public synchronized String listPages() {
        ObjectNode result = success();
        ArrayNode list = result.putArray("pages");
        pages.values().forEach(page -> list.add(pageSummary(page)));
        return write(result);
    }

    /** Appends a section to a page. */
    @Tool(name = "cms_addSection", value = "Adds a section at the end of a page and returns the new section with its id.")
    public synchronized String addSection(
            @P(name = "pageId", value = "the id of the page, e.g. page-1") String pageId,
            @P(name = "kind", value = "one of: hero, features, text, gallery, testimonials, contact, cta") String kind,
            @P(name = "heading", value = "the section heading; defaults to the kind", required = false) String heading) {
        MutablePage page = pages.get(strip(pageId));
        if (page == null) {
            return unknownPage(pageId);
        }
        String cleanKind = kind == null ? "" : kind.strip().toLowerCase(Locale.ROOT);
        if (!SECTION_KINDS.contains(cleanKind)) {
            return error("Unknown section kind '" + kind + "'. Use one of: " + String.join(", ", sortedKinds()) + ".");
        }
        String cleanHeading = heading == null || heading.isBlank()
                ? Character.toUpperCase(cleanKind.charAt(0)) + cleanKind.substring(1)
                : heading.strip();
        MutableSection section = new MutableSection("sec-" + (++sectionCounter), page.id, cleanKind, cleanHeading);
        sections.put(section.id, section);
        page.sectionIds.add(section.id);
        ObjectNode result = success();
        result.set("section", sectionNode(section));
        return write(result);
    }

    /** Searches the image library by file name and tag. */
    @Tool(name = "cms_searchImages", value = "Searches the image library by keyword; returns the matching images, best first.")
    public synchronized String searchImages(@P(name = "query", value = "a keyword, e.g. hero or team") String query) {
        if (query == null || query.isBlank()) {
            return error("The query is empty. Search with a keyword such as 'hero', 'team' or 'office'.");
        }
        List<String> words = List.of(query.strip().toLowerCase(Locale.ROOT).split("\\s+"));
        ObjectNode result = success();
        result.put("query", query.strip());
        ArrayNode matches = result.putArray("matches");
        for (Image image : images) {
            if (matches.size() < MAX_MATCHES && words.stream().allMatch(word -> matches(image, word))) {
                matches.addObject().put("id", image.id()).put("filename", image.filename()).put("alt", image.alt());
            }
        }
        if (matches.isEmpty()) {
            result.put("hint", "No image matches '" + query.strip() + "'. Try a single, broader keyword.");
        }
        return write(result);
    }

    /** Sets the image of a section. */
    @Tool(name = "cms_setSectionImage", value = "Sets the image shown in a section.")
    public synchronized String setSectionImage(
            @P(name = "sectionId", value = "the section id, e.g. sec-1") String sectionId,
            @P(name = "imageId", value = "the image id, e.g. img-1") String imageId) {
        MutableSection section = sections.get(strip(sectionId));
        if (section == null) {
            return error("There is no section with id '" + sectionId + "'. Call cms_getPage to see a page's sections.");
        }
        Optional<Image> image = image(strip(imageId));
        if (image.isEmpty()) {
            return error("There is no image with id '" + imageId + "'. Call cms_searchImages to find images.");
        }
        section.imageId = image.get().id();
        ObjectNode result = success();
        result.set("section", sectionNode(section));
        return write(result);
    }

    /** The page with {@code id} as it is now, with its sections. */
    public synchronized Optional<Page> page(String id) {
        MutablePage page = pages.get(id);
        return page == null ? Optional.empty() : Optional.of(snapshot(page));
    }

    /** All pages as they are now, oldest first. */
    public synchronized List<Page> pages() {
        return pages.values().stream().map(this::snapshot).toList();
    }

    /** The image with {@code id}, if the library has it. */
    public Optional<Image> image(String id) {
        return images.stream().filter(image -> image.id().equals(id)).findFirst();
    }

    private Page snapshot(MutablePage page) {
        List<Section> list = new ArrayList<>();
        for (String id : page.sectionIds) {
            MutableSection s = sections.get(id);
            list.add(new Section(s.id, s.pageId, s.kind, s.heading, s.imageId));
        }
        return new Page(page.id, page.title, page.slug, List.copyOf(list));
    }

    private String unknownPage(String pageId) {
        String known = pages.isEmpty() ? "There are no pages yet."
                : "Known pages: " + String.join(", ", pages.values().stream()
                        .map(p -> p.id + " (\"" + p.title + "\")").toList()) + ".";
        return error("There is no page with id '" + pageId + "'. " + known
                + " Use one of these ids, or call cms_listPages.");
    }

    private static boolean matches(Image image, String word) {
        return image.filename().toLowerCase(Locale.ROOT).contains(word) || image.tags().contains(word);
    }

    private static ObjectNode pageSummary(MutablePage page) {
        ObjectNode node = JSON.createObjectNode();
        node.put("id", page.id).put("title", page.title).put("slug", page.slug);
        return node;
    }

    private static ObjectNode sectionNode(MutableSection section) {
        ObjectNode node = JSON.createObjectNode();
        node.put("id", section.id).put("pageId", section.pageId).put("kind", section.kind).put("heading", section.heading);
        if (section.imageId != null) {
            node.put("imageId", section.imageId);
        }
        return node;
    }

    private static ObjectNode success() {
        return JSON.createObjectNode().put("success", true);
    }

    /** A failed tool result, {@code {"success":false,"error":message}}. */
    static String error(String message) {
        return write(JSON.createObjectNode().put("success", false).put("error", message));
    }

    private static String write(ObjectNode node) {
        try {
            return JSON.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot write a tool result", e);
        }
    }

    private static String strip(String text) {
        return text == null ? "" : text.strip();
    }

    static String slugOf(String title) {
        return title.toLowerCase(Locale.ROOT).replaceAll("[^\\p{IsAlphabetic}\\p{IsDigit}]+", "-").replaceAll("^-+|-+$", "");
    }

    private static List<String> sortedKinds() {
        return SECTION_KINDS.stream().sorted().toList();
    }

    private static final class MutablePage {
        final String id;
        final String title;
        final String slug;
        final List<String> sectionIds = new ArrayList<>();

        MutablePage(String id, String title, String slug) {
            this.id = id;
            this.title = title;
            this.slug = slug;
        }
    }

    private static final class MutableSection {
        final String id;
        final String pageId;
        final String kind;
        final String heading;
        String imageId;

        MutableSection(String id, String pageId, String kind, String heading) {
            this.id = id;
            this.pageId = pageId;
            this.kind = kind;
            this.heading = heading;
        }
    }
}
