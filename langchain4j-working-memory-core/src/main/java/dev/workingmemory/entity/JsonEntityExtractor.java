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
 * Finds the entities (pages, sections, images, restaurants, events, ...) in JSON tool results, in the spirit of the
 * entity tracking seed: {@code cms_createPage} returning {@code {"success":true,"page":{"id":"page-123","title":"About Us"}}}
 * yields {@code Entity("page-123", "About Us", "page")}, and {@code FindRestaurants} returning
 * {@code [{"restaurant_name":"Sushi Ran","city":"Sausalito"}]} yields {@code Entity.withoutId("Sushi Ran", "restaurant")}.
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
 * <h2>Resources and named records</h2>
 * The document is walked depth-first in document order. An object is a <em>resource</em> when it has both a type
 * and an id; it is a <em>named record</em> when it has no id but a name (below). Either becomes an entity and is a
 * leaf of the walk: objects nested in it, such as a page's sections, a post's author or an event's venue, are not
 * extracted; a named record that has no type to become an entity of still owns what it nests. One exception: a
 * record without an id that holds resources with ids is an envelope, and those resources are kept instead of it.
 * Other objects and arrays are walked into. Recognized shapes:
 * <ul>
 *   <li>a resource under a key: {@code {"page":{...}}}, also nested in wrappers: {@code {"result":{"page":{...}}}};</li>
 *   <li>a list under a key: {@code {"pages":[...]}}, {@code {"matches":[...]}}, {@code {"data":{"items":[...]}}};</li>
 *   <li>a top-level list {@code [{...}, ...]} and a top-level object that is itself the resource
 *       {@code {"id":"page-9","title":"Home"}} (typed by the tool name);</li>
 *   <li>a flat object with a prefixed id: {@code {"event_id":"e-1","event_name":"Launch"}} (type {@code event});</li>
 *   <li>the fields of an attribute object ({@code attributes} of JSON:API, {@code _source} of Elasticsearch,
 *       {@code fields}, {@code properties}) count as the record's own: {@code {"id":"1","attributes":{"title":"T"}}}.</li>
 * </ul>
 * <b>Wrapper keys</b> ({@code data, result(s), item(s), match(es), hits, docs, records, rows, content(s), payload,
 * response, body, value(s), list, node(s), edges, object(s), output, resource(s), elements}) pass through: what
 * they hold is typed as if it sat directly under the key above them. <b>Bookkeeping keys</b> ({@code meta,
 * metadata, pagination, paging, page_info, links, error(s), debug, headers, request, usage}) and side-loaded related
 * records ({@code included}) are not walked.
 *
 * <h2>Types</h2>
 * A record that declares its type in {@code __typename} (GraphQL), {@code @type} (JSON-LD) or {@code object}
 * (Stripe, Notion) has that type ({@code Restaurant} → restaurant, {@code payment_intent}). Otherwise the type of an
 * object is, in order:
 * <ol>
 *   <li>the known type named by the nearest non-wrapper key holding it, judged by the key's last word
 *       ({@code pages}, {@code featured_image}, {@code blogPosts}); known types are the built-in vocabulary (the
 *       seed's {@code page, section, image, post, entry, collection, media, task}; resources of tool APIs such as
 *       {@code file, document, article, comment, user, customer, contact, account, product, order, invoice,
 *       payment, transaction, event, message, channel, project, issue, ticket, repository, card, ...}; things of
 *       service domains: {@code restaurant, hotel, room, attraction, venue, theater, place, business, movie, song,
 *       track, album, artist, playlist, podcast, episode, book, recipe, course, flight, trip, property, apartment,
 *       car, doctor, dentist, therapist, stylist, salon, job, country, alarm, reminder}), their abbreviations
 *       ({@code doc, repo, img, pic, msg}) and the values of {@link Builder#toolTypes(Map) toolTypes};</li>
 *   <li>the tool's type if it is a known one: {@code toolTypes.get(toolName)} (exact match) if configured, else
 *       the last known type word of the tool name before the first preposition ({@code by, for, to, in, into, of,
 *       from, with, on, at, under}) that follows one; words are split at {@code _ - . : /}, spaces and lower-to-upper
 *       case changes and matched case-insensitively, singular or plural: {@code cms_createPage} → page,
 *       {@code getPageSections} → section, {@code getPostsByUser} → post, {@code FindRestaurants} → restaurant,
 *       {@code GetTimesForMovie} → movie. The first verb ({@code get, find, search, lookup, list, fetch, query,
 *       create, update, delete, book, reserve, buy, rent, play, schedule, post, ...}) is not a type word while
 *       another word follows ({@code BookAppointment} is not about books, {@code getBookDetails} is), and {@code ticket} after another type
 *       does not replace it ({@code BuyEventTickets} → event);</li>
 *   <li>a type made from that key: lower snake case, singularized ({@code widgets} → widget,
 *       {@code lineItems} → line_item), by the simple rules of {@link dev.workingmemory.internal.EnglishNouns};</li>
 *   <li>the word of the tool name after its first verb, before a preposition, singularized, when the name holds no
 *       known type word: {@code get_weather} → weather, {@code GetRide} → ride, {@code FindHomeByArea} → home
 *       ({@code available}, {@code details}, {@code info} at the end are skipped: {@code GetCarsAvailable}).</li>
 * </ol>
 * An object with an id for which none of these gives a type (no known key, no tool type, at the root or under
 * wrapper keys only) is skipped <em>unless</em> it has no {@code id}/{@code uuid} but a prefixed id key such as
 * {@code page_id} or {@code eventId}; then the prefix is its type.
 *
 * <p><b>Headings.</b> The block lists a type's entities under its plural ({@link EntityMemory}). A record of a list
 * whose type was made from the list's key (rule 3) is listed under that key, in lower snake case, when that is not the
 * plural English rules make of the type: the key of a list is the plural its API gives, and an API in another language
 * gives one those rules do not know ({@code {"verbindungen":[…]}} under {@code verbindungen:}, not
 * {@code verbindungens:}; {@code szkolki}, {@code artikel}). A key that names a known type keeps its English plural.
 *
 * <p><b>Reports are not things.</b> A tool whose type is one of {@code weather, forecast, balance, rate, status,
 * availability, slot, time, count, stat, statistic, metric, usage, health, fare, estimate} yields no entities at all
 * ({@code get_weather}, {@code CheckBalance}, {@code GetAvailableTimes}), and no record of such a type is an entity.
 *
 * <h2>Ids</h2>
 * The id is the first usable value of: {@code id} (also {@code ID}, {@code Id}), {@code uuid}, {@code _id},
 * {@code *_id}/{@code *Id} keys whose prefix only says the record is a record ({@code objectID}, {@code item_id},
 * {@code entity, record, resource, node, doc}), {@code <type>_id}/{@code <type>Id}, the first other
 * {@code *_id}/{@code *Id}/{@code *ID} key with a usable value (whose prefix then becomes the type; prefixes
 * {@code request, trace, span, correlation, session, tenant, parent, cursor, next, prev, previous} are never ids),
 * {@code key}, and for a record with a type and no name of its own, the value of its first field (under a key of no
 * name, title or id kind) when it is a code: one token of letters, digits and hyphens, a hyphen next to a digit, no
 * date ({@code {"注文番号":"JP-20251120-5573"}}, {@code {"commande":"FR-2025-99412"}}: an API in another language keeps
 * the number under its own word, first). Such a record that holds one thing under a key of its own
 * ({@code {"buchung":"BK-55-30912","hotel":{"id":"H-1182",…}}}) is about that thing: the thing is kept instead.
 * Usable ids are non-blank strings of at most 256 characters (stripped) or integers (their literal text,
 * so {@code 12345678901234567890} survives); other values are skipped.
 *
 * <h2>Names</h2>
 * The name of a resource is the first non-blank string of {@code title, name, heading, <type>_name/<type>Name},
 * other {@code *_name/*Name} keys, {@code slug, filename, label}, an account's {@code username, login, handle}
 * (GitHub's user has no name), then {@code subject} or {@code summary} if it looks
 * like a name (below), then, in a record of a list, the string right after the id under a key of none of these
 * kinds (no {@code *name},
 * {@code *title}, {@code *id}) when it is written as a proper name: two words or more starting with capitals, not all
 * capitals, or a script without case and no digit ({@code {"id":"AP-7781","nombre":"Casa do Fado"}},
 * {@code "название":"Гостиница Ангара"}, {@code "名称":"洱海边小院"}: an API in another language names its records under its
 * own words, next to the id as English ones do; {@code "estado":"Entregado"}, {@code "USD"} or a sentence name
 * nothing, and a record looked up alone is not named so: an order gives its customer's name next to its number);
 * names longer than 256 characters are cut and end with {@code …}; no name means the id is the
 * name (see {@link Entity}). A {@code name} or {@code title} given as an object ({@code "name":{"text":"Tech Meetup"}},
 * a title per language) is its first string that looks like a name, not counting parts of a person's name
 * ({@code first}, {@code last}, ...). A {@code *_name} key whose prefix names another party of the record ({@code receiver,
 * recipient, sender, payer, payee, user, customer, contact, owner, author, host, account, company, airline, ...},
 * anywhere in the prefix: {@code recipient_account_name}) never names it, unless that party is the record's type
 * ({@code contact_name} of a contact).
 *
 * <p>A record <em>without an id</em> is a named record when it has, in this order of preference, a name key of its
 * type ({@code restaurant_name}/{@code restaurantName}/{@code movie_title}/{@code movieTitle} under type restaurant
 * or movie), {@code title}, {@code name}, {@code heading}, or a qualified name ({@code display_name},
 * {@code full_name}, {@code short_name}, ...), and a type from the rules above; or, when no key above it names a known
 * type, a name key whose prefix names a thing of a known type ({@code {"stylist_name":…}} from {@code FindProvider}
 * is a stylist); or, with no type at all, any {@code *_name} key whose prefix names no party
 * ({@code {"widget_name":"Dial"}} is a widget). {@code *_title} keys count only with a known or the record's type.
 * Its value must look like the name of a thing: one line of at most 120 characters and 15 words with a letter in it,
 * not a URL, e-mail address or placeholder ({@code n/a}, {@code unknown}), not starting with a digit unless a word of
 * three letters follows ({@code 2019-03-01}, {@code 7:30 pm}, {@code 1989} are not names). Such a record gets the id
 * {@link Entity#withoutId(String, String) derived} from its type and name, so two records of one type whose names
 * differ only in case or spacing are one entity.
 *
 * <h2>Bounds</h2>
 * At most {@link Builder#maxPerList(int) maxPerList} (default 3) elements of any array are examined; at most
 * {@link Builder#maxEntities(int) maxEntities} (default 10) entities are returned, deduplicated by id (the first
 * occurrence wins), in document order; the walk stops when that many are found, below {@code maxDepth} levels,
 * and after examining 10,000 nodes (containers, array elements, object fields). The containers of a resource that
 * follow its id are skipped without being examined: they cannot hold entities.
 *
 * <p>Thread-safe: the configuration is immutable, the Jackson {@code JsonFactory} is shared (it is thread-safe),
 * and three Caffeine caches remember the type of up to 1,024 tool names, what a key holding a container means
 * (bookkeeping, wrapper, the types it names) for up to 512 keys of at most 64 characters, and what a prefixed name
 * key names for as many.
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
    private static final EntityTypeNames.ToolType NO_TYPE = new EntityTypeNames.ToolType("", false);

    private final Map<String, String> toolTypes;
    private final int maxPerList;
    private final int maxDepth;
    private final int maxChars;
    private final int maxEntities;
    private final EntityTypeNames typeNames;
    private final ContainerKeys containerKeys;
    private final NameKeys nameKeys;
    private final JsonFactory jsonFactory;
    private final Cache<String, EntityTypeNames.ToolType> toolTypeCache = Caffeine.newBuilder()
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
        this.nameKeys = new NameKeys(typeNames);
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
        return extractWithHeadings(toolName, resultText).entities();
    }

    /**
     * The entities of a result, as {@link #extract}, with the heading the key of each one's list gives its type
     * ({@link ResourceWalk#headings()}): what {@link EntityMemory} lists them under.
     */
    @Override
    public ExtractedEntities extractWithHeadings(String toolName, String resultText) {
        if (resultText == null || resultText.length() > maxChars || !startsLikeJsonContainer(resultText)) {
            return ExtractedEntities.NONE;
        }
        EntityTypeNames.ToolType toolType = toolTypeOf(toolName);
        if (toolType != null && EntityTypeNames.REPORT_TYPES.contains(toolType.type())) {
            return ExtractedEntities.NONE; // a weather report, a balance, time slots: not things
        }
        try (JsonParser parser = jsonFactory.createParser(resultText)) {
            ResourceWalk walk =
                    new ResourceWalk(containerKeys, nameKeys, toolType, maxPerList, maxDepth, maxEntities);
            List<Entity> entities = walk.run(parser);
            return entities.isEmpty() ? ExtractedEntities.NONE : new ExtractedEntities(entities, walk.headings());
        } catch (Exception e) {
            if (LOG.isDebugEnabled()) { // e.toString() formats the parser's location and a source excerpt
                LOG.debug("No entities from result of tool '{}': {}", toolName, e.toString());
            }
            return ExtractedEntities.NONE;
        }
    }

    /** The type of the tool's resources: the configured one, else inferred from the name; {@code null} if none. */
    String typeOfTool(String toolName) {
        EntityTypeNames.ToolType type = toolTypeOf(toolName);
        return type == null ? null : type.type();
    }

    private EntityTypeNames.ToolType toolTypeOf(String toolName) {
        if (toolName == null) {
            return null;
        }
        EntityTypeNames.ToolType type = toolTypeCache.get(toolName, this::inferTypeOfTool);
        return type == NO_TYPE ? null : type;
    }

    private EntityTypeNames.ToolType inferTypeOfTool(String toolName) {
        String configured = toolTypes.get(toolName);
        if (configured != null) {
            return new EntityTypeNames.ToolType(configured, true);
        }
        EntityTypeNames.ToolType type = typeNames.typeOfToolName(toolName);
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
