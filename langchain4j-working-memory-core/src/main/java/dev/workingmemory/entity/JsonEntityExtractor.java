package dev.workingmemory.entity;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.workingmemory.internal.Ensure;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Finds the entities (pages, sections, images, ...) in JSON tool results, in the spirit of the entity
 * tracking seed: {@code cms_createPage} returning {@code {"success":true,"page":{"id":"page-123","title":"About Us"}}}
 * yields {@code Entity("page-123", "About Us", "page")}.
 *
 * <pre>{@code
 * EntityExtractor extractor = JsonEntityExtractor.builder()
 *         .toolTypes(Map.of("lookup", "product"))
 *         .maxPerList(3)
 *         .build();
 * List<Entity> entities = extractor.extract("cms_getSectionContent",
 *         "{\"section\":{\"id\":\"sec-456\",\"heading\":\"Welcome\"}}");
 * // [Entity[id=sec-456, name=Welcome, type=section]]
 * }</pre>
 *
 * <h2>Input</h2>
 * Only text whose first non-whitespace character is <code>&#123;</code> or <code>[</code> is read (anything else
 * returns an empty list without touching the parser), and only if it is at most {@link Builder#maxChars(int)
 * maxChars} characters long (default 1,000,000). The text is read once, with a streaming Jackson parser (no tree is
 * built: only id and name values become strings) under stream read constraints: nesting at most
 * {@link Builder#maxDepth(int) maxDepth} levels (default 64), document and string length at most {@code maxChars}.
 * The whole document is read even when enough entities were found early, so that malformed JSON (including trailing
 * content after the value), too deep or too long input and any other failure return an empty list; failures are
 * logged at DEBUG. {@link #extract} never throws and never returns {@code null}.
 *
 * <h2>Resources</h2>
 * The document is walked depth-first in document order. An object is a <em>resource</em> when it has both a type
 * and an id; a resource becomes an entity and is a leaf of the walk (objects nested in it, such as a page's sections
 * or a post's author, are not extracted). Other objects and arrays are walked into. Recognized shapes:
 * <ul>
 *   <li>a resource under a key: {@code {"page":{...}}}, also nested in wrappers: {@code {"result":{"page":{...}}}};</li>
 *   <li>a list under a key: {@code {"pages":[...]}}, {@code {"matches":[...]}}, {@code {"data":{"items":[...]}}};</li>
 *   <li>a top-level list {@code [{...}, ...]} and a top-level object that is itself the resource
 *       {@code {"id":"page-9","title":"Home"}} (typed by the tool name);</li>
 *   <li>a flat object with a prefixed id: {@code {"event_id":"e-1","event_name":"Launch"}} (type {@code event}).</li>
 * </ul>
 * <b>Wrapper keys</b> ({@code data, result(s), item(s), match(es), hits, records, rows, content(s), payload,
 * response, body, value(s), list, node(s), edges, object(s), output, resource(s), elements}) pass through: what
 * they hold is typed as if it sat directly under the key above them. <b>Bookkeeping keys</b> ({@code meta,
 * metadata, pagination, paging, page_info, links, error(s), debug, headers, request, usage}) are not walked.
 *
 * <h2>Types</h2>
 * The type of an object is, in order:
 * <ol>
 *   <li>the known type named by the nearest non-wrapper key holding it, judged by the key's last word
 *       ({@code pages}, {@code featured_image}, {@code blogPosts}); known types are the built-in vocabulary
 *       ({@code page, section, image, post, entry, collection, media, task, file, folder, document, article,
 *       comment, photo, video, asset, user, customer, contact, account, team, company, product, order, invoice,
 *       payment, event, message, channel, note, project, issue, ticket, repository, branch, tag, category,
 *       template, component, site}) plus the values of {@link Builder#toolTypes(Map) toolTypes};</li>
 *   <li>the tool's type: {@code toolTypes.get(toolName)} (exact match) if configured, else inferred from the tool
 *       name as the last known type word before the first preposition ({@code by, for, to, in, into, of, from,
 *       with, on, at, under}); words are split at {@code _ - . : /}, spaces and lower-to-upper case changes and
 *       matched case-insensitively, singular or plural: {@code cms_createPage} and {@code create_page} → page,
 *       {@code getImages} → image, {@code getPageSections} → section, {@code getPostsByUser} → post;</li>
 *   <li>a type made from that key: lower snake case, singularized ({@code widgets} → widget,
 *       {@code lineItems} → line_item). The singularizer is simple: {@code ies→y}, {@code sses→ss},
 *       {@code xes→x}, {@code ches→ch}, {@code shes→sh}, else a trailing {@code s} is dropped unless the word ends
 *       in {@code ss}, {@code us} or {@code is}; people, children, indices, media, data, series, news are
 *       special-cased.</li>
 * </ol>
 * An object for which none of these gives a type (no known key, no tool type, at the root or under wrapper keys
 * only) is skipped <em>unless</em> it has no {@code id}/{@code uuid} but a prefixed id key such as {@code page_id}
 * or {@code eventId}; then the prefix is its type.
 *
 * <h2>Ids and names</h2>
 * The id is the first usable value of: {@code id} (also {@code ID}, {@code Id}), {@code uuid},
 * {@code <type>_id}/{@code <type>Id}, the first other {@code *_id}/{@code *Id}/{@code *ID} key with a usable value (whose prefix then
 * becomes the type; prefixes {@code request, trace, span, correlation, session, tenant, parent, cursor, next,
 * prev, previous} are never ids), {@code key}. Usable ids are non-blank strings of at most 256 characters
 * (stripped) or integers (their literal text, so {@code 12345678901234567890} survives); other values are skipped. The name is the first non-blank string
 * of {@code title, name, heading, <type>_name/<type>Name, other *_name/*Name, slug, filename, label}; names longer
 * than 256 characters are cut and end with {@code …}; no name means the id is the name (see {@link Entity}).
 * Names are returned as they are: escaping them is the renderer's job.
 *
 * <h2>Bounds</h2>
 * At most {@link Builder#maxPerList(int) maxPerList} (default 3) elements of any array are examined; at most
 * {@link Builder#maxEntities(int) maxEntities} (default 10) entities are returned, deduplicated by id (the first
 * occurrence wins), in document order; the walk stops when that many are found, below {@code maxDepth} levels,
 * and after examining 10,000 nodes (containers, array elements, object fields). The containers of a resource that
 * follow its id are skipped without being examined: they cannot hold entities.
 *
 * <p>Thread-safe: the configuration is immutable, the Jackson {@code JsonFactory} is shared (it is thread-safe),
 * and two Caffeine caches remember the type of up to 1,024 tool names and what a key holding a container means
 * (bookkeeping, wrapper, the types it names) for up to 512 keys of at most 64 characters.
 */
public final class JsonEntityExtractor implements EntityExtractor {

    public static final int DEFAULT_MAX_PER_LIST = 3;
    public static final int DEFAULT_MAX_DEPTH = 64;
    public static final int DEFAULT_MAX_CHARS = 1_000_000;
    public static final int DEFAULT_MAX_ENTITIES = 10;
    /** The largest accepted {@code maxDepth}: the walk recurses once per level. */
    public static final int MAX_DEPTH_LIMIT = 1_000;

    private static final Logger LOG = LoggerFactory.getLogger(JsonEntityExtractor.class);
    /** Tool names are few: the types of this many are remembered. */
    private static final int TOOL_TYPE_CACHE_SIZE = 1_024;
    /** Cached for tools without a type; types are never blank. */
    private static final String NO_TYPE = "";

    private final Map<String, String> toolTypes;
    private final int maxPerList;
    private final int maxDepth;
    private final int maxChars;
    private final int maxEntities;
    private final EntityTypeNames typeNames;
    private final ContainerKeys containerKeys;
    private final JsonFactory jsonFactory;
    private final Cache<String, String> toolTypeCache = Caffeine.newBuilder()
            .maximumSize(TOOL_TYPE_CACHE_SIZE)
            .executor(Runnable::run)
            .build();

    private JsonEntityExtractor(Builder builder) {
        this.toolTypes = copyToolTypes(builder.toolTypes);
        this.maxPerList = Ensure.positive(orDefault(builder.maxPerList, DEFAULT_MAX_PER_LIST), "maxPerList");
        this.maxDepth = Ensure.positive(orDefault(builder.maxDepth, DEFAULT_MAX_DEPTH), "maxDepth");
        Ensure.that(maxDepth <= MAX_DEPTH_LIMIT,
                "maxDepth must be at most " + MAX_DEPTH_LIMIT + ", was " + maxDepth);
        this.maxChars = Ensure.positive(orDefault(builder.maxChars, DEFAULT_MAX_CHARS), "maxChars");
        this.maxEntities = Ensure.positive(orDefault(builder.maxEntities, DEFAULT_MAX_ENTITIES), "maxEntities");
        this.typeNames = new EntityTypeNames(toolTypes.values());
        this.containerKeys = new ContainerKeys(typeNames);
        StreamReadConstraints constraints = StreamReadConstraints.builder()
                .maxNestingDepth(maxDepth)
                .maxDocumentLength(maxChars)
                .maxStringLength(maxChars)
                .build();
        this.jsonFactory = JsonFactory.builder().streamReadConstraints(constraints).build();
    }

    /** An extractor with the defaults: no configured tool types, 3 per list, depth 64, 1,000,000 chars, 10 entities. */
    public static JsonEntityExtractor create() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public List<Entity> extract(String toolName, String resultText) {
        if (resultText == null || resultText.length() > maxChars || !startsLikeJsonContainer(resultText)) {
            return List.of();
        }
        try (JsonParser parser = jsonFactory.createParser(resultText)) {
            ResourceWalk walk =
                    new ResourceWalk(containerKeys, typeOfTool(toolName), maxPerList, maxDepth, maxEntities);
            List<Entity> entities = walk.run(parser);
            return entities.isEmpty() ? List.of() : Collections.unmodifiableList(entities);
        } catch (Exception e) {
            if (LOG.isDebugEnabled()) { // e.toString() formats the parser's location and a source excerpt
                LOG.debug("No entities from result of tool '{}': {}", toolName, e.toString());
            }
            return List.of();
        }
    }

    /** The type of the tool's resources: the configured one, else inferred from the name; {@code null} if none. */
    String typeOfTool(String toolName) {
        if (toolName == null) {
            return null;
        }
        String type = toolTypeCache.get(toolName, this::inferTypeOfTool);
        return type.isEmpty() ? null : type;
    }

    private String inferTypeOfTool(String toolName) {
        String configured = toolTypes.get(toolName);
        String type = configured != null ? configured : typeNames.typeOfToolName(toolName);
        return type == null ? NO_TYPE : type;
    }

    private static boolean startsLikeJsonContainer(String text) {
        int length = text.length();
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
                continue;
            }
            return c == '{' || c == '[';
        }
        return false;
    }

    private static Map<String, String> copyToolTypes(Map<String, String> toolTypes) {
        if (toolTypes == null) {
            return Map.of();
        }
        toolTypes.forEach((tool, type) -> {
            Ensure.notBlank(tool, "toolTypes key");
            Ensure.notBlank(type, "toolTypes value for '" + tool + "'");
        });
        return Map.copyOf(toolTypes);
    }

    private static int orDefault(Integer value, int fallback) {
        return value != null ? value : fallback;
    }

    @Override
    public String toString() {
        return "JsonEntityExtractor{toolTypes=" + toolTypes + ", maxPerList=" + maxPerList + ", maxDepth=" + maxDepth
                + ", maxChars=" + maxChars + ", maxEntities=" + maxEntities + '}';
    }

    /** Builds a {@link JsonEntityExtractor}; unset options take the defaults. Not thread-safe. */
    public static final class Builder {

        private Map<String, String> toolTypes;
        private Integer maxPerList;
        private Integer maxDepth;
        private Integer maxChars;
        private Integer maxEntities;

        private Builder() {
        }

        /**
         * @param toolTypes tool name → entity type, matched exactly; wins over the type inferred from the tool name.
         *                  Keys and values must not be blank. The types also become known type words for keys.
         */
        public Builder toolTypes(Map<String, String> toolTypes) {
            this.toolTypes = toolTypes;
            return this;
        }

        /** @param maxPerList how many elements of any array are examined; positive, default 3 */
        public Builder maxPerList(int maxPerList) {
            this.maxPerList = maxPerList;
            return this;
        }

        /** @param maxDepth the deepest nesting parsed and walked; 1 to 1,000, default 64 */
        public Builder maxDepth(int maxDepth) {
            this.maxDepth = maxDepth;
            return this;
        }

        /** @param maxChars longer results are ignored without parsing; positive, default 1,000,000 */
        public Builder maxChars(int maxChars) {
            this.maxChars = maxChars;
            return this;
        }

        /** @param maxEntities the most entities returned for one result; positive, default 10 */
        public Builder maxEntities(int maxEntities) {
            this.maxEntities = maxEntities;
            return this;
        }

        /** @throws IllegalArgumentException if an option is out of range or a tool type is blank */
        public JsonEntityExtractor build() {
            return new JsonEntityExtractor(this);
        }
    }
}
