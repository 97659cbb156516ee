package dev.workingmemory.entity;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One bounded depth-first walk over the token stream of a tool result, collecting the resources and named records
 * it holds as {@link Entity entities}. The rules are documented on {@link JsonEntityExtractor}.
 *
 * <p>The walk reads the JSON once with a streaming {@link JsonParser} and builds no tree: only id values and names
 * better than the best so far become strings, everything else is skipped by the tokenizer. An object is sure to be a
 * resource once it has a type and an id no later key can displace, often only at its end: the entities found in its
 * containers before that are provisional and dropped if it turns out to be one (a resource is a leaf), its containers
 * after that are skipped without being examined. A record without an id is known to be one only at its end. The
 * entities are those a pre-order walk over the tree finds.
 *
 * <p>Not thread-safe: create one per result.
 */
final class ResourceWalk {

    /** How many nodes (containers, array elements and object fields) one walk examines at most. */
    static final int MAX_NODES = 10_000;
    /** Longer id values are not taken as ids. */
    static final int MAX_ID_LENGTH = 256;
    /** A date at the start of a value: no code ({@link #isCode}). */
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}|\\d{2}-\\d{2}-\\d{4}");
    /** Longer names are cut to this many characters, ending with an ellipsis. */
    static final int MAX_NAME_LENGTH = 256;

    /** Prefixes of {@code *_id} keys that never identify an entity ({@code request_id}, {@code parentId}, ...). */
    static final Set<String> IGNORED_ID_PREFIXES = Set.of(
            "request", "trace", "span", "correlation", "session", "tenant", "parent", "cursor",
            "next", "prev", "previous");

    /**
     * Prefixes of {@code *_id} keys that are the record's own id, not a reference to a record of another type
     * ({@code objectID} of a search hit, {@code item_id}): such a key counts like {@code uuid}.
     */
    static final Set<String> OWN_ID_PREFIXES = Set.of("object", "item", "entity", "record", "resource", "node", "doc");

    /** Keys of an object holding the record's own fields (JSON:API, Elasticsearch): read as part of the record. */
    static final Set<String> ATTRIBUTE_KEYS = Set.of("attributes", "_source", "fields", "properties");

    /** Ranks of the name keys of a record with an id, best first. */
    private static final int TITLE = 0;
    private static final int NAME = 1;
    private static final int HEADING = 2;
    private static final int TYPED_NAME = 3;
    private static final int OTHER_NAME = 4;
    private static final int SLUG = 5;
    private static final int FILENAME = 6;
    private static final int LABEL = 7;
    private static final int HANDLE = 8;
    private static final int SUBJECT = 9;
    /**
     * The string right after the id of a record in a list, under a key of no rank above, when it reads as a proper
     * name ({@link #namesAfterId}): an API in another language names its records under its own words ({@code nombre},
     * {@code nazwa}, {@code название}) and lists the name next to the id, as English ones do. Not a record looked up
     * alone: an order or an account gives its customer's name next to its number ({@code "cliente":"Marta Iglesias"}).
     */
    private static final int AFTER_ID = 10;
    private static final int NO_NAME = 11;

    /** Ranks of the names a record without an id can have, best first. */
    private static final int OWN_TYPED = 0;
    private static final int OWN_TITLE = 1;
    private static final int OWN_NAME = 2;
    private static final int OWN_HEADING = 3;
    private static final int OWN_PLAIN = 4;
    private static final int NO_OWN = 5;

    private final ContainerKeys keys;
    private final NameKeys nameKeys;
    private final EntityTypeNames.ToolType toolType;
    private final int maxPerList;
    private final int maxDepth;
    private final int maxEntities;
    private final List<Entity> found;
    /** The heading each of {@link #found} had from the key of its list ({@link ContainerKeys.Key#listHeading}), or null. */
    private final List<String> headings;
    /** Which of {@link #found} have derived ids. */
    private final BitSet derived = new BitSet();
    /** Whether the object about to be read is an element of a list. */
    private boolean nextIsElement;
    /** Which of {@link #found} have the code of their first field as id ({@link Fields#firstCode}). */
    private final BitSet coded = new BitSet();
    private int remaining = MAX_NODES;

    ResourceWalk(ContainerKeys keys, NameKeys nameKeys, EntityTypeNames.ToolType toolType, int maxPerList,
                 int maxDepth, int maxEntities) {
        this.keys = keys;
        this.nameKeys = nameKeys;
        this.toolType = toolType;
        this.maxPerList = maxPerList;
        this.maxDepth = maxDepth;
        this.maxEntities = maxEntities;
        this.found = new ArrayList<>(Math.min(maxEntities, 4)); // most results hold one to three
        this.headings = new ArrayList<>(Math.min(maxEntities, 4));
    }

    /**
     * Reads the whole document from {@code parser} (positioned before its first token).
     *
     * @return the entities in document order, or an empty list when the document is not exactly one JSON
     * object or array
     * @throws IOException when the JSON is malformed or breaks the parser's constraints
     */
    List<Entity> run(JsonParser parser) throws IOException {
        JsonToken first = parser.nextToken();
        if (first == JsonToken.START_OBJECT) {
            readObject(parser, null, 1);
        } else if (first == JsonToken.START_ARRAY) {
            readArray(parser, null, 1);
        } else {
            return List.of();
        }
        if (parser.nextToken() != null) {
            return List.of(); // trailing content: not one JSON value
        }
        return found;
    }

    /**
     * The heading the key of its list gives each entity {@link #run} returned, in the same order: the list's key when
     * the entity's type was made from it and the block would spell its plural otherwise ({@code verbindungen}), else
     * {@code null}.
     */
    List<String> headings() {
        return headings;
    }

    /** Whether containers are no longer entered (enough found, or the node budget spent). */
    private boolean saturated() {
        return remaining <= 0 || found.size() >= maxEntities;
    }

    private void readContainer(JsonParser parser, JsonToken start, ContainerKeys.Key context, int depth)
            throws IOException {
        if (depth > maxDepth || saturated()) {
            parser.skipChildren();
        } else if (start == JsonToken.START_OBJECT) {
            readObject(parser, context, depth);
        } else {
            readArray(parser, context, depth);
        }
    }

    /** Reads an array up to its end; only the first {@code maxPerList} elements are examined. */
    private void readArray(JsonParser parser, ContainerKeys.Key context, int depth) throws IOException {
        remaining--;
        int index = 0;
        JsonToken token;
        while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
            if (token == null) {
                throw new IOException("unexpected end of input in array");
            }
            if (token.isStructStart()) {
                if (index < maxPerList) {
                    remaining--;
                    nextIsElement = true;
                    readContainer(parser, token, context, depth + 1);
                    nextIsElement = false;
                } else {
                    parser.skipChildren();
                }
            }
            index++;
        }
    }

    /** The id and name candidates of one object, filled while its fields stream by. */
    private static final class Fields {
        String id;
        String uuid;
        String typedId;
        String otherId;
        String otherIdKey;
        int otherIdSuffix;
        String key;
        /** Only the best name so far is kept: a name key of a worse rank is not even read. */
        String name;
        int nameRank = NO_NAME;
        /** The best name the record has for itself if it has no id ({@code title}, {@code restaurant_name}). */
        String ownName;
        int ownRank = NO_OWN;
        /** The first name of a thing of another type ({@code stylist_name} of a provider), and that type. */
        String thingName;
        String thingType;
        boolean thingKnown;
        String declaredType;
        /** Whether the last field read set an id. */
        boolean afterId;
        /** Whether the object is an element of a list: one of several things, told apart by their names. */
        boolean element;
        /** Whether a field was read: only the first can give {@link #firstCode}. */
        boolean started;
        /** The first field's value when it is shaped as a code ({@link #isCode}): the id of a record that has none. */
        String firstCode;
        /** Whether the entity made of these fields has {@link #firstCode} as its id. */
        boolean codeId;
        /** Which of {@link #found} came from an object under one of these fields' keys, not from a list. */
        final BitSet heldAlone = new BitSet();
        /** Whether the entity made of these fields got a derived id. */
        boolean derivedId;
        /** Whether the object is sure to be a resource: its containers need not be walked. */
        boolean leaf;

        boolean strongId() {
            return id != null || uuid != null || typedId != null;
        }
    }

    /**
     * Reads an object up to its end: walks its containers (their entities are provisional), notes its id and name
     * candidates, and at the end adds it as an entity if it is a resource or a named record. Once the object is sure
     * to be a resource (it has a type and an id no later key can displace), its remaining containers are skipped: a
     * resource is a leaf, so nothing found in them would be kept.
     */
    private void readObject(JsonParser parser, ContainerKeys.Key context, int depth) throws IOException {
        remaining--;
        boolean element = nextIsElement;
        nextIsElement = false;
        String type = typeOfContext(context);
        int mark = found.size();
        Fields fields = new Fields();
        fields.element = element;
        readFields(parser, context, depth, type, fields, false);
        Entity entity = entityOf(fields, type, context != null && context.knownType() != null);
        if (entity != null && EntityTypeNames.REPORT_TYPES.contains(entity.type())) {
            return;
        }
        boolean named = fields.ownName != null || fields.thingName != null;
        if (entity == null && !named) {
            return;
        }
        if ((entity == null || fields.derivedId) && derived.nextClearBit(mark) < found.size()) {
            return; // a record without an id around resources with ids is an envelope, not a thing
        }
        if (fields.codeId && aboutAThing(fields, mark)) {
            return; // a booking's or a confirmation's number around the thing it is about: the thing
        }
        // A resource or named record is a leaf: what was found inside it belongs to it, even when the record itself
        // has no type to become an entity of.
        while (found.size() > mark) {
            found.remove(found.size() - 1);
            headings.remove(headings.size() - 1);
        }
        if (entity != null) {
            // a record of a list typed by the list's key: the key is the plural its API gives that type
            String heading = element && context != null && entity.type().equals(context.ownType())
                    ? context.listHeading() : null;
            add(entity, fields.derivedId, fields.codeId, heading);
        }
    }

    /**
     * Whether a record whose id is its first field's code holds, under a key of its own, one thing with an id of its
     * own or a name ({@code "hotel":{"id":…}}, {@code "restaurant":{"name":"Nopa"}}): a booking or a confirmation is
     * about that thing. The lists it holds are its own parts (an order's lines, its payments), which it keeps.
     */
    private boolean aboutAThing(Fields fields, int mark) {
        for (int i = mark; i < found.size(); i++) {
            if (fields.heldAlone.get(i) && !coded.get(i)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The entity an object stands for: a resource when it has a type and an id, else a record named by a name key,
     * with an id {@linkplain Entity#withoutId derived} from its type and name; {@code null} when neither.
     */
    private Entity entityOf(Fields fields, String contextType, boolean typedByKnownKey) {
        String type = fields.declaredType != null ? fields.declaredType : contextType;
        if (type == null) {
            // Without a type only a prefixed id key (event_id) can name one, and only if nothing else is the id.
            if (fields.id != null || fields.uuid != null) {
                return null;
            }
            if (fields.otherId != null) {
                return new Entity(fields.otherId, fields.name, typeOfIdPrefix(fields.otherIdKey, fields.otherIdSuffix));
            }
            return withoutId(fields, null, false);
        }
        if (fields.id != null) {
            return new Entity(fields.id, fields.name, type);
        }
        if (fields.uuid != null) {
            return new Entity(fields.uuid, fields.name, type);
        }
        if (fields.typedId != null) {
            return new Entity(fields.typedId, fields.name, type);
        }
        if (fields.otherId != null) {
            return new Entity(fields.otherId, fields.name, typeOfIdPrefix(fields.otherIdKey, fields.otherIdSuffix));
        }
        if (fields.key != null) {
            return new Entity(fields.key, fields.name, type);
        }
        if (fields.firstCode != null && fields.ownName == null && fields.thingName == null) {
            fields.codeId = true;
            return new Entity(fields.firstCode, fields.name, type);
        }
        return withoutId(fields, type, typedByKnownKey && fields.declaredType == null);
    }

    /**
     * A record without an id: named by its own name under its type, or else by the name of a thing of another type
     * ({@code {"stylist_name":…}} from {@code FindProvider}) when no key above fixes the type.
     */
    private static Entity withoutId(Fields fields, String type, boolean typeFixed) {
        Entity entity = null;
        if (type != null && fields.ownName != null) {
            entity = Entity.withoutId(fields.ownName, type);
        } else if (fields.thingName != null && (type == null || (fields.thingKnown && !typeFixed))) {
            entity = Entity.withoutId(fields.thingName, fields.thingType);
        }
        fields.derivedId = entity != null;
        return entity;
    }

    /**
     * Reads the fields of an object up to its end into {@code fields}, walking its containers until it is sure to be
     * a resource. The fields of an attribute object ({@code "attributes":{…}}) count as the object's own; the
     * containers inside that are skipped.
     */
    private void readFields(JsonParser parser, ContainerKeys.Key context, int depth, String type, Fields fields,
                            boolean attributes) throws IOException {
        JsonToken token;
        while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            boolean afterId = fields.afterId;
            fields.afterId = false;
            boolean first = !fields.started && !attributes;
            fields.started = true;
            token = parser.nextToken();
            if (token == null) {
                break;
            }
            if (first && token == JsonToken.VALUE_STRING && !hasOwnRule(field) && isCode(parser.getText())) {
                fields.firstCode = parser.getText();
            }
            if (token.isStructStart()) {
                if (token == JsonToken.START_OBJECT && (field.equals("name") || field.equals("title"))) {
                    remaining--;
                    readNameObject(parser, field, fields);
                } else if (!attributes && token == JsonToken.START_OBJECT && ATTRIBUTE_KEYS.contains(field)) {
                    remaining--;
                    readFields(parser, context, depth, type, fields, true);
                } else if (attributes || fields.leaf) {
                    parser.skipChildren();
                } else {
                    int before = found.size();
                    readField(parser, token, field, context, depth);
                    if (token == JsonToken.START_OBJECT && found.size() > before) {
                        fields.heldAlone.set(before, found.size());
                    }
                }
            } else if (--remaining >= 0) {
                readScalar(parser, token, field, type, fields, afterId);
            }
            fields.leaf = (type != null || fields.declaredType != null) && fields.strongId();
        }
        if (token != JsonToken.END_OBJECT) {
            throw new IOException("unexpected " + token + " in object");
        }
    }

    /** Notes what one scalar field says about the object's id, name and type. */
    private void readScalar(JsonParser parser, JsonToken token, String field, String type, Fields fields,
                            boolean afterId) throws IOException {
        // Ids and names are strings or integers; other scalars only count as examined nodes.
        if (field.isEmpty() || (token != JsonToken.VALUE_STRING && token != JsonToken.VALUE_NUMBER_INT)) {
            return;
        }
        boolean strongId = fields.strongId();
        String id = fields.id;
        String uuid = fields.uuid;
        String typedId = fields.typedId;
        String otherId = fields.otherId;
        String key = fields.key;
        int rank = NO_NAME;
        int ownRank = NO_OWN;
        NameKeys.NameKey thing = null;
        switch (field) {
            case "id", "ID", "Id" -> fields.id = fields.id != null ? fields.id : idText(parser, token);
            case "uuid", "_id" -> fields.uuid = fields.id != null || fields.uuid != null
                    ? fields.uuid : idText(parser, token);
            case "key" -> fields.key = strongId || fields.key != null ? fields.key : idText(parser, token);
            case "title" -> {
                rank = TITLE;
                ownRank = OWN_TITLE;
            }
            case "name" -> {
                rank = NAME;
                ownRank = OWN_NAME;
            }
            case "heading" -> {
                rank = HEADING;
                ownRank = OWN_HEADING;
            }
            case "slug" -> rank = SLUG;
            case "filename" -> rank = FILENAME;
            case "label" -> rank = LABEL;
            case "username", "login", "handle" -> rank = HANDLE; // a person's account: GitHub's user has no name
            case "subject", "summary" -> rank = SUBJECT;
            case "__typename", "@type", "object" -> {
                if (token == JsonToken.VALUE_STRING && fields.declaredType == null) {
                    fields.declaredType = EntityTypeNames.typeOfDeclared(parser.getText());
                }
            }
            default -> {
                char last = field.charAt(field.length() - 1);
                if (last == 'd' || last == 'D') {
                    readPrefixedId(parser, token, field, type, fields, strongId);
                } else if (last == 'e' && token == JsonToken.VALUE_STRING) {
                    NameKeys.NameKey nameKey = nameKeys.of(field);
                    if (nameKey == null) {
                        break;
                    }
                    if (type != null && type.equalsIgnoreCase(nameKey.prefixType())) {
                        rank = TYPED_NAME;
                        ownRank = OWN_TYPED;
                    } else if (nameKey.kind() == NameKeys.Kind.PLAIN) {
                        rank = OTHER_NAME;
                        ownRank = OWN_PLAIN;
                    } else if (nameKey.kind() == NameKeys.Kind.PARTIAL) {
                        rank = OTHER_NAME;
                    } else if (nameKey.kind() == NameKeys.Kind.THING && (!nameKey.title() || nameKey.known())) {
                        rank = OTHER_NAME;
                        if (fields.thingName == null || (!fields.thingKnown && nameKey.known())) {
                            thing = nameKey;
                        }
                    }
                }
            }
        }
        fields.afterId = id != fields.id || uuid != fields.uuid || typedId != fields.typedId
                || otherId != fields.otherId || key != fields.key;
        if (rank == NO_NAME && afterId && fields.element && !fields.afterId && !hasOwnRule(field)) {
            rank = AFTER_ID;
        }
        if (rank >= fields.nameRank && ownRank >= fields.ownRank && thing == null) {
            return;
        }
        String text = nameText(parser, token);
        if (text != null && (rank != AFTER_ID || namesAfterId(text))) {
            offerName(fields, text, rank, ownRank, thing);
        }
    }

    /**
     * Whether a value is shaped as a code that identifies a record: one token of 4 to 64 letters, digits and hyphens,
     * with a hyphen between a digit and a letter or digit ({@code 4471-2025-88}, {@code JP-20251120-5573},
     * {@code ОБМ-88213}, {@code CN-88310025}), and no date ({@code 2025-11-28}). An API in another language keeps a
     * record's number under its own word ({@code bestellnummer}, {@code commande}, {@code 注文番号}), first, where an
     * English one has {@code id}; a status, a name, an amount, a time, a version or a bare number is no code.
     */
    static boolean isCode(String text) {
        int length = text.length();
        if (length < 4 || length > 64 || DATE.matcher(text).lookingAt()) {
            return false;
        }
        boolean digit = false;
        boolean hyphen = false;
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c == '-') {
                if (i == 0 || i == length - 1 || text.charAt(i - 1) == '-') {
                    return false;
                }
                hyphen |= Character.isDigit(text.charAt(i - 1)) || Character.isDigit(text.charAt(i + 1));
            } else if (Character.isDigit(c)) {
                digit = true;
            } else if (!Character.isLetter(c)) {
                return false;
            }
        }
        return digit && hyphen;
    }

    /** Whether the key is a name, title or id key: what such a key holds is decided by the rules of its kind. */
    private static boolean hasOwnRule(String field) {
        int n = field.length();
        return n >= 2 && field.regionMatches(true, n - 2, "id", 0, 2)
                || n >= 4 && field.regionMatches(true, n - 4, "name", 0, 4)
                || n >= 5 && field.regionMatches(true, n - 5, "title", 0, 5);
    }

    /**
     * Whether a value after a record's id reads as a proper name: it looks like a name ({@link NameKeys#looksLikeName})
     * and is written as one: its first word and another start with a capital ({@code Casa do Fado}, {@code Гостиница
     * Ангара}), with some letter not a capital, or it is in a script without case and holds no digit ({@code 嵐山温泉
     * 花筏}). So a status, a currency, a code or a sentence ({@code shipped}, {@code Entregado}, {@code in Zustellung},
     * {@code USD}, {@code D8781}, {@code Buy more coffee filters}) names nothing. A status in a script without case
     * ({@code 已发货}) cannot be told from a name so.
     */
    static boolean namesAfterId(String text) {
        String value = text.strip();
        if (!NameKeys.looksLikeName(value)) {
            return false;
        }
        int capitalised = 0;
        boolean notCapital = false;
        boolean digit = false;
        boolean wordStart = true;
        int first = -1;
        for (int i = 0; i < value.length(); ) {
            int c = value.codePointAt(i);
            if (Character.isWhitespace(c)) {
                wordStart = true;
            } else if (Character.isLetter(c)) {
                if (wordStart) {
                    if (first < 0) {
                        first = c;
                    }
                    capitalised += Character.isLowerCase(c) ? 0 : 1;
                    wordStart = false;
                }
                notCapital |= !Character.isUpperCase(c);
            } else {
                digit |= Character.isDigit(c);
            }
            i += Character.charCount(c);
        }
        boolean caseless = first >= 0 && !Character.isLowerCase(first) && !Character.isUpperCase(first);
        return caseless ? !digit : first >= 0 && Character.isUpperCase(first) && notCapital && capitalised >= 2;
    }

    /**
     * Reads a name given as an object ({@code "name":{"text":"Tech Meetup"}}, {@code "title":{"romaji":…,
     * "english":…}}): its first string that looks like a name, except parts of a person's name ({@code first},
     * {@code last}, ...). Containers inside are skipped.
     */
    private void readNameObject(JsonParser parser, String field, Fields fields) throws IOException {
        boolean title = field.equals("title");
        int rank = title ? TITLE : NAME;
        int ownRank = title ? OWN_TITLE : OWN_NAME;
        JsonToken token;
        while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
            String part = parser.currentName();
            token = parser.nextToken();
            if (token == null) {
                break;
            }
            if (token.isStructStart()) {
                parser.skipChildren();
            } else if (--remaining >= 0 && token == JsonToken.VALUE_STRING
                    && (rank < fields.nameRank || ownRank < fields.ownRank)
                    && !NameKeys.PARTIALS.contains(part.toLowerCase(Locale.ROOT))) {
                String text = nameText(parser, token);
                if (text != null && NameKeys.looksLikeName(text)) {
                    offerName(fields, text, rank, ownRank, null);
                }
            }
        }
        if (token != JsonToken.END_OBJECT) {
            throw new IOException("unexpected " + token + " in object");
        }
    }

    /** Keeps {@code text} as the name of the ranks it betters; names of records without an id must look like one. */
    private static void offerName(Fields fields, String text, int rank, int ownRank, NameKeys.NameKey thing) {
        if (rank < fields.nameRank && (rank != SUBJECT || NameKeys.looksLikeName(text))) {
            fields.name = text;
            fields.nameRank = rank;
        }
        if ((ownRank < fields.ownRank || thing != null) && NameKeys.looksLikeName(text)) {
            if (ownRank < fields.ownRank) {
                fields.ownName = text;
                fields.ownRank = ownRank;
            }
            if (thing != null) {
                fields.thingName = text;
                fields.thingType = thing.prefixType();
                fields.thingKnown = thing.known();
            }
        }
    }

    /** Notes a {@code *_id}/{@code *Id} field: the record's id in its type's name, its own id, or another's. */
    private static void readPrefixedId(JsonParser parser, JsonToken token, String field, String type, Fields fields,
                                       boolean strongId) throws IOException {
        int idSuffix = strongId ? 0 : idSuffixLength(field);
        if (idSuffix == 0) {
            return;
        }
        if (type != null && hasPrefix(field, idSuffix, type)) {
            fields.typedId = idText(parser, token);
            return;
        }
        if (fields.otherId != null && fields.uuid != null) {
            return;
        }
        String prefix = field.substring(0, field.length() - idSuffix).toLowerCase(Locale.ROOT);
        if (OWN_ID_PREFIXES.contains(prefix)) {
            fields.uuid = fields.uuid != null ? fields.uuid : idText(parser, token);
        } else if (fields.otherId == null && !IGNORED_ID_PREFIXES.contains(prefix)) {
            fields.otherId = idText(parser, token);
            if (fields.otherId != null) {
                fields.otherIdKey = field;
                fields.otherIdSuffix = idSuffix;
            }
        }
    }

    /** Walks the container held by {@code field}, unless the key is bookkeeping; wrapper keys pass on the context. */
    private void readField(JsonParser parser, JsonToken start, String field, ContainerKeys.Key context, int depth)
            throws IOException {
        ContainerKeys.Key key = keys.of(field);
        if (key.ignored()) {
            parser.skipChildren();
        } else {
            readContainer(parser, start, key.wrapper() ? context : key, depth + 1);
        }
    }

    private void add(Entity entity, boolean derivedId, boolean codeId, String heading) {
        if (found.size() >= maxEntities) {
            return;
        }
        for (Entity existing : found) {
            if (existing.id().equals(entity.id())) {
                return;
            }
        }
        derived.set(found.size(), derivedId);
        coded.set(found.size(), codeId);
        found.add(entity);
        headings.add(heading);
    }

    /**
     * The type of a record held (directly or through wrapper keys) by {@code context}: a known type the key names
     * wins, then the tool's type if it is a known one, then a type made from the key itself, then the tool's type
     * taken from its name.
     */
    private String typeOfContext(ContainerKeys.Key context) {
        if (context == null) {
            return toolType == null ? null : toolType.type();
        }
        if (context.knownType() != null) {
            return context.knownType();
        }
        if (toolType != null && toolType.known()) {
            return toolType.type();
        }
        if (context.ownType() != null) {
            return context.ownType();
        }
        return toolType == null ? null : toolType.type();
    }

    private String typeOfIdPrefix(String key, int suffix) {
        String prefix = key.substring(0, key.length() - suffix);
        String known = keys.typeNames().knownTypeOfKey(prefix);
        return known != null ? known : EntityTypeNames.typeOfKey(prefix);
    }

    /** 3 for {@code page_id}, 2 for {@code pageId} / {@code pageID}, 0 if the key is not a prefixed id key. */
    static int idSuffixLength(String key) {
        int n = key.length();
        if (n > 3 && key.endsWith("_id")) {
            return 3;
        }
        if (n > 2 && (key.endsWith("Id") || key.endsWith("ID")) && Character.isLowerCase(key.charAt(n - 3))) {
            return 2;
        }
        return 0;
    }

    /** Whether {@code key} minus its suffix is {@code type}, ignoring case ({@code pageId} for page). */
    private static boolean hasPrefix(String key, int suffix, String type) {
        return key.length() - suffix == type.length() && key.regionMatches(true, 0, type, 0, type.length());
    }

    /**
     * The id the current value stands for: a string of at most {@link #MAX_ID_LENGTH} chars, not blank once
     * stripped, or an integer (its literal text); otherwise {@code null}.
     */
    private static String idText(JsonParser parser, JsonToken token) throws IOException {
        if (token == JsonToken.VALUE_STRING) {
            if (parser.getTextLength() > MAX_ID_LENGTH) {
                return null;
            }
            String text = parser.getText().strip();
            return text.isEmpty() ? null : text;
        }
        if (token == JsonToken.VALUE_NUMBER_INT) {
            return parser.getTextLength() > MAX_ID_LENGTH ? null : parser.getText();
        }
        return null;
    }

    /**
     * The name the current value stands for: a string that is not blank, cut to {@link #MAX_NAME_LENGTH} chars
     * (ending with an ellipsis) without copying the rest; otherwise {@code null}.
     */
    private static String nameText(JsonParser parser, JsonToken token) throws IOException {
        if (token != JsonToken.VALUE_STRING) {
            return null;
        }
        char[] chars = parser.getTextCharacters();
        int offset = parser.getTextOffset();
        int length = parser.getTextLength();
        boolean blank = true;
        for (int i = offset, end = offset + length; i < end; i++) {
            if (!Character.isWhitespace(chars[i])) {
                blank = false;
                break;
            }
        }
        if (blank) {
            return null;
        }
        if (length <= MAX_NAME_LENGTH) {
            return new String(chars, offset, length);
        }
        int cut = MAX_NAME_LENGTH - 1;
        if (Character.isHighSurrogate(chars[offset + cut - 1])) {
            cut--;
        }
        return new String(chars, offset, cut) + "…";
    }
}
