// GENERATED from the server's /v1/openapi.json by openapi-typescript: do not edit.
// Regenerate with `npm run gen:client` (test/client/types.test.ts checks it is current).
export interface paths {
    "/v1/bindings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the org's role bindings */
        get: operations["listBindings"];
        put?: never;
        /** Grant a role to a key, on the org or on a namespace */
        post: operations["grantRole"];
        /** Revoke a role granted to a key */
        delete: operations["revokeRole"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/erasures": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The org's erasure log, by id (the org admin's) */
        get: operations["listErasures"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/erasures/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An erasure's record and progress: phase, counts, expected completion */
        get: operations["getErasure"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/erasures/{id}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Recomputes a key's HMAC under the erasure's key version and shows the record if it holds it */
        post: operations["verifyErasure"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the org's API keys (never their secrets) */
        get: operations["listKeys"];
        put?: never;
        /** Create an API key with one role, on the org or on a namespace, within the calling key's own scopes and roles; the key is in this answer only */
        post: operations["createKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API key (every node refuses it within about a second) */
        delete: operations["revokeKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/namespaces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List namespaces by name */
        get: operations["listNamespaces"];
        put?: never;
        /** Create a namespace */
        post: operations["createNamespace"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/namespaces/{ns}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a namespace */
        get: operations["getNamespace"];
        put?: never;
        post?: never;
        /** Delete a namespace (it must have no collections) */
        delete: operations["deleteNamespace"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/namespaces/{ns}/collections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List collections by name */
        get: operations["listCollections"];
        put?: never;
        /** Create a collection of JSON documents with a primary key */
        post: operations["createCollection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/namespaces/{ns}/collections/{c}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a collection */
        get: operations["getCollection"];
        put?: never;
        post?: never;
        /** Delete a collection */
        delete: operations["deleteCollection"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/namespaces/{ns}/collections/{c}/documents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Upsert and delete documents; atomic per partition group, acknowledged once committed */
        post: operations["writeDocuments"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/namespaces/{ns}/collections/{c}/documents/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a document by primary key */
        get: operations["getDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/namespaces/{ns}/collections/{c}/erase": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Erase documents for good (GDPR): deleted at once, then purged from every object, version and cache by the deadline; answers the erasure and the delete's token */
        post: operations["eraseDocuments"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/namespaces/{ns}/collections/{c}/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Query documents with a filter, in primary-key order, a page at a time */
        post: operations["query"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/namespaces/{ns}/collections/{c}/retention": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set a collection's log retention (a namespace admin's action); answers the collection */
        put: operations["setCollectionRetention"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/namespaces/{ns}/key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A namespace's encryption key: whether it is encrypted, its key versions and their state (never key material); a namespace admin's */
        get: operations["getNamespaceKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/namespaces/{ns}/key/destroy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Crypto-shreds the namespace: destroys every version of its key, so none of its bytes in the bucket can be decrypted again. Cannot be undone */
        post: operations["destroyNamespaceKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/namespaces/{ns}/key/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Starts a new key version: data written from now on is sealed under it, data written before still reads (a namespace without a key gets its first one) */
        post: operations["rotateNamespaceKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/org": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's org */
        get: operations["getOrg"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/orgs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Operator: list the tenant orgs */
        get: operations["listOrgs"];
        put?: never;
        /** Operator: create an org and its first admin key (the key is in this answer only) */
        post: operations["createOrg"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/orgs/{org}/erasures": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Operator (audit): an org's erasure log */
        get: operations["auditErasures"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/orgs/{org}/quotas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Operator: an org's quotas (of the org, or of one namespace) */
        get: operations["getOrgQuotas"];
        /** Operator: override a quota of an org or one of its namespaces, within the quota's bounds (value null clears the override) */
        put: operations["setOrgQuota"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/orgs/{org}/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Operator: an org's usage */
        get: operations["getOrgUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/placement": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Where a namespace's keys are placed (spec §5.3): the owner and replicas of its namespace key and of its collections, and the load per node (an org admin's; the operator names the org) */
        get: operations["getPlacement"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/quotas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's org's quotas: defaults, bounds, overrides and effective values (of the org, or of one namespace); only the operator sets them */
        get: operations["getQuotas"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The org's usage: requests and ingest bytes per namespace and hour (counted by the gateways), stored bytes and unapplied records per namespace (measured) */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: never;
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listBindings: {
        parameters: {
            query?: {
                cursor?: string;
                page_size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items?: {
                            created?: number;
                            org?: string;
                            role?: string;
                            subject?: string;
                            target?: {
                                /** @enum {string} */
                                kind?: "org" | "namespace";
                                ns?: number;
                            };
                        }[];
                        next_cursor?: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    grantRole: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A key id (16 hex digits): the middle of loam_<key_id>_<secret> */
                    key_id: string;
                    namespace?: string;
                    /** @enum {string} */
                    role: "org_admin" | "namespace_admin" | "writer" | "reader";
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        created?: number;
                        org?: string;
                        role?: string;
                        subject?: string;
                        target?: {
                            /** @enum {string} */
                            kind?: "org" | "namespace";
                            ns?: number;
                        };
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    revokeRole: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A key id (16 hex digits): the middle of loam_<key_id>_<secret> */
                    key_id: string;
                    namespace?: string;
                    /** @enum {string} */
                    role: "org_admin" | "namespace_admin" | "writer" | "reader";
                };
            };
        };
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listErasures: {
        parameters: {
            query?: {
                active?: boolean;
                cursor?: string;
                page_size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items?: {
                            collection_id?: number;
                            completed?: number | null;
                            counts?: {
                                files_rewritten?: number;
                                keys?: number;
                                nodes_evicted?: number;
                                objects_deleted?: number;
                                objects_retired?: number;
                                orphans_deleted?: number;
                                tags_rewritten?: number;
                            };
                            /** @description Completion is due by this time (ms since the epoch) */
                            deadline?: number;
                            /** @description requested + the configured bound (purge deadline + segmenter lag + GC grace) */
                            expected_completion?: number;
                            id?: string;
                            /** @description HMAC-SHA256 of each key's canonical encoding under the org's erasure-log key */
                            key_hashes?: string[];
                            key_version?: number;
                            namespace_id?: number;
                            offsets?: {
                                offset?: number;
                                partition?: number;
                            }[];
                            org?: string;
                            /** @enum {string} */
                            phase?: "requested" | "purging" | "trimming" | "collecting" | "evicting" | "complete";
                            purged_version?: number | null;
                            requested?: number;
                            retired?: string[];
                            rewritten?: {
                                from?: string;
                                to?: string | null;
                            }[];
                            tags?: {
                                from_path?: string;
                                from_version?: number;
                                name?: string;
                                to_path?: string;
                            }[];
                            /** @description What the current phase waits for */
                            waiting?: string | null;
                        }[];
                        next_cursor?: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getErasure: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        collection_id?: number;
                        completed?: number | null;
                        counts?: {
                            files_rewritten?: number;
                            keys?: number;
                            nodes_evicted?: number;
                            objects_deleted?: number;
                            objects_retired?: number;
                            orphans_deleted?: number;
                            tags_rewritten?: number;
                        };
                        /** @description Completion is due by this time (ms since the epoch) */
                        deadline?: number;
                        /** @description requested + the configured bound (purge deadline + segmenter lag + GC grace) */
                        expected_completion?: number;
                        id?: string;
                        /** @description HMAC-SHA256 of each key's canonical encoding under the org's erasure-log key */
                        key_hashes?: string[];
                        key_version?: number;
                        namespace_id?: number;
                        offsets?: {
                            offset?: number;
                            partition?: number;
                        }[];
                        org?: string;
                        /** @enum {string} */
                        phase?: "requested" | "purging" | "trimming" | "collecting" | "evicting" | "complete";
                        purged_version?: number | null;
                        requested?: number;
                        retired?: string[];
                        rewritten?: {
                            from?: string;
                            to?: string | null;
                        }[];
                        tags?: {
                            from_path?: string;
                            from_version?: number;
                            name?: string;
                            to_path?: string;
                        }[];
                        /** @description What the current phase waits for */
                        waiting?: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    verifyErasure: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    key: string | number;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        erasure?: {
                            collection_id?: number;
                            completed?: number | null;
                            counts?: {
                                files_rewritten?: number;
                                keys?: number;
                                nodes_evicted?: number;
                                objects_deleted?: number;
                                objects_retired?: number;
                                orphans_deleted?: number;
                                tags_rewritten?: number;
                            };
                            /** @description Completion is due by this time (ms since the epoch) */
                            deadline?: number;
                            /** @description requested + the configured bound (purge deadline + segmenter lag + GC grace) */
                            expected_completion?: number;
                            id?: string;
                            /** @description HMAC-SHA256 of each key's canonical encoding under the org's erasure-log key */
                            key_hashes?: string[];
                            key_version?: number;
                            namespace_id?: number;
                            offsets?: {
                                offset?: number;
                                partition?: number;
                            }[];
                            org?: string;
                            /** @enum {string} */
                            phase?: "requested" | "purging" | "trimming" | "collecting" | "evicting" | "complete";
                            purged_version?: number | null;
                            requested?: number;
                            retired?: string[];
                            rewritten?: {
                                from?: string;
                                to?: string | null;
                            }[];
                            tags?: {
                                from_path?: string;
                                from_version?: number;
                                name?: string;
                                to_path?: string;
                            }[];
                            /** @description What the current phase waits for */
                            waiting?: string | null;
                        };
                        key_hash?: string;
                        key_version?: number;
                        verified?: boolean;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listKeys: {
        parameters: {
            query?: {
                cursor?: string;
                page_size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items?: {
                            created?: number;
                            createdBy?: string;
                            expiry?: number | null;
                            keyId?: string;
                            lastUsed?: number | null;
                            org?: string;
                            revoked?: number | null;
                            scopes?: string[];
                        }[];
                        next_cursor?: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    createKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    namespace?: string;
                    /**
                     * @description operator: only for an operator key creating another
                     * @enum {string}
                     */
                    role: "org_admin" | "namespace_admin" | "writer" | "reader" | "operator";
                    /** @description *, read, write, admin, ns:<namespace> */
                    scopes?: string[];
                    /** @description Lifetime in seconds (at most a year) */
                    ttl_s?: number;
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        created?: number;
                        createdBy?: string;
                        expiry?: number | null;
                        key?: string;
                        keyId?: string;
                        lastUsed?: number | null;
                        note?: string;
                        org?: string;
                        revoked?: number | null;
                        scopes?: string[];
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    revokeKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listNamespaces: {
        parameters: {
            query?: {
                cursor?: string;
                page_size?: number;
                prefix?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items?: {
                            created?: number;
                            id?: number;
                            name?: string;
                        }[];
                        next_cursor?: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    createNamespace: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        created?: number;
                        id?: number;
                        name?: string;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getNamespace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ns: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        created?: number;
                        id?: number;
                        name?: string;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    deleteNamespace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ns: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listCollections: {
        parameters: {
            query?: {
                cursor?: string;
                page_size?: number;
                prefix?: string;
            };
            header?: never;
            path: {
                ns: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items?: {
                            created?: number;
                            fields?: {
                                [key: string]: string;
                            };
                            id?: number;
                            name?: string;
                            namespace?: string;
                            partitions?: number;
                            primary_key?: string;
                            /** @description How much of the collection's log is kept beyond what every retained manifest has applied (never less: the log is trimmed only below that). Default { "ms": 86400000, "bytes": null }; both null keep the log for ever. Lists leave it out: GET the collection. */
                            retention?: {
                                /** @description Each partition keeps at most about this many bytes of log (1048576..1125899906842624); null: no byte bound. */
                                bytes: number | null;
                                /** @description Records older than this many milliseconds may be trimmed (1000..315360000000); null: no age bound. */
                                ms: number | null;
                            };
                        }[];
                        next_cursor?: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    createCollection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ns: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Optional field types (string, number, boolean, json), checked on write and in filters. */
                    fields?: {
                        [key: string]: "string" | "number" | "boolean" | "json";
                    };
                    name: string;
                    /** @default 4 */
                    partitions?: number;
                    primary_key: string;
                    /** @description How much of the collection's log is kept beyond what every retained manifest has applied (never less: the log is trimmed only below that). Default { "ms": 86400000, "bytes": null }; both null keep the log for ever. */
                    retention?: {
                        /** @description Each partition keeps at most about this many bytes of log (1048576..1125899906842624); null: no byte bound. */
                        bytes: number | null;
                        /** @description Records older than this many milliseconds may be trimmed (1000..315360000000); null: no age bound. */
                        ms: number | null;
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        created?: number;
                        fields?: {
                            [key: string]: string;
                        };
                        id?: number;
                        name?: string;
                        namespace?: string;
                        partitions?: number;
                        primary_key?: string;
                        /** @description How much of the collection's log is kept beyond what every retained manifest has applied (never less: the log is trimmed only below that). Default { "ms": 86400000, "bytes": null }; both null keep the log for ever. Lists leave it out: GET the collection. */
                        retention?: {
                            /** @description Each partition keeps at most about this many bytes of log (1048576..1125899906842624); null: no byte bound. */
                            bytes: number | null;
                            /** @description Records older than this many milliseconds may be trimmed (1000..315360000000); null: no age bound. */
                            ms: number | null;
                        };
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getCollection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                c: string;
                ns: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        created?: number;
                        fields?: {
                            [key: string]: string;
                        };
                        id?: number;
                        name?: string;
                        namespace?: string;
                        partitions?: number;
                        primary_key?: string;
                        /** @description How much of the collection's log is kept beyond what every retained manifest has applied (never less: the log is trimmed only below that). Default { "ms": 86400000, "bytes": null }; both null keep the log for ever. Lists leave it out: GET the collection. */
                        retention?: {
                            /** @description Each partition keeps at most about this many bytes of log (1048576..1125899906842624); null: no byte bound. */
                            bytes: number | null;
                            /** @description Records older than this many milliseconds may be trimmed (1000..315360000000); null: no age bound. */
                            ms: number | null;
                        };
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    deleteCollection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                c: string;
                ns: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    writeDocuments: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                c: string;
                ns: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Primary key values */
                    deletes?: (string | number)[];
                    /** @description Documents, each with the primary key */
                    upserts?: Record<string, unknown>[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description A consistency token a write returned: the read sees that write. Writes return tokens of at most 2048 characters. */
                        token?: string;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getDocument: {
        parameters: {
            query?: {
                consistency?: "strong" | "eventual";
                token?: string;
            };
            header?: never;
            path: {
                c: string;
                id: string;
                ns: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    eraseDocuments: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                c: string;
                ns: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A query filter; the documents it matches now (at most 1000) are erased */
                    filter?: Record<string, unknown>;
                    /** @description Primary key values, 1..1000 (MAX_ERASE_KEYS) */
                    keys?: (string | number)[];
                };
            };
        };
        responses: {
            /** @description OK */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        erasure?: {
                            collection_id?: number;
                            completed?: number | null;
                            counts?: {
                                files_rewritten?: number;
                                keys?: number;
                                nodes_evicted?: number;
                                objects_deleted?: number;
                                objects_retired?: number;
                                orphans_deleted?: number;
                                tags_rewritten?: number;
                            };
                            /** @description Completion is due by this time (ms since the epoch) */
                            deadline?: number;
                            /** @description requested + the configured bound (purge deadline + segmenter lag + GC grace) */
                            expected_completion?: number;
                            id?: string;
                            /** @description HMAC-SHA256 of each key's canonical encoding under the org's erasure-log key */
                            key_hashes?: string[];
                            key_version?: number;
                            namespace_id?: number;
                            offsets?: {
                                offset?: number;
                                partition?: number;
                            }[];
                            org?: string;
                            /** @enum {string} */
                            phase?: "requested" | "purging" | "trimming" | "collecting" | "evicting" | "complete";
                            purged_version?: number | null;
                            requested?: number;
                            retired?: string[];
                            rewritten?: {
                                from?: string;
                                to?: string | null;
                            }[];
                            tags?: {
                                from_path?: string;
                                from_version?: number;
                                name?: string;
                                to_path?: string;
                            }[];
                            /** @description What the current phase waits for */
                            waiting?: string | null;
                        };
                        /** @description A consistency token a write returned: the read sees that write. Writes return tokens of at most 2048 characters. */
                        token?: string;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    query: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                c: string;
                ns: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @default strong
                     * @enum {string}
                     */
                    consistency?: "strong" | "eventual";
                    cursor?: string;
                    /** @description e.g. {"status": "active", "age": {"$gte": 18}}, {"$or": [...]}, {"tag": {"$in": ["a", "b"]}}, {"$not": {...}} */
                    filter?: Record<string, unknown>;
                    /**
                     * @description Documents a page holds at most; a page also ends before the document that would take it past 16777216 bytes of documents (it always holds one).
                     * @default 100
                     */
                    limit?: number;
                    /** @description A consistency token a write returned: the read sees that write. Writes return tokens of at most 2048 characters. */
                    token?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The matching documents in primary-key order, each as it was sent. */
                        documents?: {
                            [key: string]: unknown;
                        }[];
                        /** @description The next page's cursor; null when there is no more. A page may hold fewer than limit documents and still have more. */
                        next_cursor?: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    setCollectionRetention: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                c: string;
                ns: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Each partition keeps at most about this many bytes of log (1048576..1125899906842624); null: no byte bound. */
                    bytes: number | null;
                    /** @description Records older than this many milliseconds may be trimmed (1000..315360000000); null: no age bound. */
                    ms: number | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        created?: number;
                        fields?: {
                            [key: string]: string;
                        };
                        id?: number;
                        name?: string;
                        namespace?: string;
                        partitions?: number;
                        primary_key?: string;
                        /** @description How much of the collection's log is kept beyond what every retained manifest has applied (never less: the log is trimmed only below that). Default { "ms": 86400000, "bytes": null }; both null keep the log for ever. Lists leave it out: GET the collection. */
                        retention?: {
                            /** @description Each partition keeps at most about this many bytes of log (1048576..1125899906842624); null: no byte bound. */
                            bytes: number | null;
                            /** @description Records older than this many milliseconds may be trimmed (1000..315360000000); null: no age bound. */
                            ms: number | null;
                        };
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getNamespaceKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ns: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The version new data is sealed under */
                        current_version?: number | null;
                        encrypted?: boolean;
                        namespace?: string;
                        namespace_id?: number;
                        /** @enum {string|null} */
                        provider?: "local" | "kms" | null;
                        /**
                         * @description none: written unencrypted (no key yet); destroyed: crypto-shredded
                         * @enum {string}
                         */
                        state?: "none" | "active" | "destroyed";
                        versions?: {
                            created?: number;
                            destroyed?: number | null;
                            /** @description The root that wraps it: the master key's id, or the KMS key's ARN */
                            key_ref?: string;
                            provider?: string;
                            /** @enum {string} */
                            state?: "active" | "destroyed";
                            version?: number;
                        }[];
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    destroyNamespaceKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ns: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The namespace's name, repeated: destruction cannot be undone */
                    confirm: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The version new data is sealed under */
                        current_version?: number | null;
                        encrypted?: boolean;
                        namespace?: string;
                        namespace_id?: number;
                        /** @enum {string|null} */
                        provider?: "local" | "kms" | null;
                        /**
                         * @description none: written unencrypted (no key yet); destroyed: crypto-shredded
                         * @enum {string}
                         */
                        state?: "none" | "active" | "destroyed";
                        versions?: {
                            created?: number;
                            destroyed?: number | null;
                            /** @description The root that wraps it: the master key's id, or the KMS key's ARN */
                            key_ref?: string;
                            provider?: string;
                            /** @enum {string} */
                            state?: "active" | "destroyed";
                            version?: number;
                        }[];
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    rotateNamespaceKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ns: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The version new data is sealed under */
                        current_version?: number | null;
                        encrypted?: boolean;
                        namespace?: string;
                        namespace_id?: number;
                        /** @enum {string|null} */
                        provider?: "local" | "kms" | null;
                        /**
                         * @description none: written unencrypted (no key yet); destroyed: crypto-shredded
                         * @enum {string}
                         */
                        state?: "none" | "active" | "destroyed";
                        versions?: {
                            created?: number;
                            destroyed?: number | null;
                            /** @description The root that wraps it: the master key's id, or the KMS key's ARN */
                            key_ref?: string;
                            provider?: string;
                            /** @enum {string} */
                            state?: "active" | "destroyed";
                            version?: number;
                        }[];
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getOrg: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        created?: number;
                        id?: string;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    listOrgs: {
        parameters: {
            query?: {
                cursor?: string;
                page_size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items?: {
                            created?: number;
                            id?: string;
                        }[];
                        next_cursor?: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    createOrg: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    id: string;
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        admin_key?: string;
                        id?: string;
                        key?: {
                            created?: number;
                            createdBy?: string;
                            expiry?: number | null;
                            keyId?: string;
                            lastUsed?: number | null;
                            org?: string;
                            revoked?: number | null;
                            scopes?: string[];
                        };
                        note?: string;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    auditErasures: {
        parameters: {
            query?: {
                cursor?: string;
                page_size?: number;
            };
            header?: never;
            path: {
                org: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items?: {
                            collection_id?: number;
                            completed?: number | null;
                            counts?: {
                                files_rewritten?: number;
                                keys?: number;
                                nodes_evicted?: number;
                                objects_deleted?: number;
                                objects_retired?: number;
                                orphans_deleted?: number;
                                tags_rewritten?: number;
                            };
                            /** @description Completion is due by this time (ms since the epoch) */
                            deadline?: number;
                            /** @description requested + the configured bound (purge deadline + segmenter lag + GC grace) */
                            expected_completion?: number;
                            id?: string;
                            /** @description HMAC-SHA256 of each key's canonical encoding under the org's erasure-log key */
                            key_hashes?: string[];
                            key_version?: number;
                            namespace_id?: number;
                            offsets?: {
                                offset?: number;
                                partition?: number;
                            }[];
                            org?: string;
                            /** @enum {string} */
                            phase?: "requested" | "purging" | "trimming" | "collecting" | "evicting" | "complete";
                            purged_version?: number | null;
                            requested?: number;
                            retired?: string[];
                            rewritten?: {
                                from?: string;
                                to?: string | null;
                            }[];
                            tags?: {
                                from_path?: string;
                                from_version?: number;
                                name?: string;
                                to_path?: string;
                            }[];
                            /** @description What the current phase waits for */
                            waiting?: string | null;
                        }[];
                        next_cursor?: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getOrgQuotas: {
        parameters: {
            query?: {
                namespace?: string;
            };
            header?: never;
            path: {
                org: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        bounds?: {
                            [key: string]: {
                                integer?: boolean;
                                max?: number;
                                min?: number;
                            };
                        };
                        defaults?: {
                            [key: string]: number;
                        };
                        effective?: {
                            [key: string]: number;
                        };
                        /** @description Live gateways; each enforces rate quotas ÷ this */
                        gateways?: number;
                        overrides?: {
                            name?: string;
                            ns?: number | null;
                            org?: string;
                            value?: number;
                        }[];
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    setOrgQuota: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    name: "request_rate" | "ingest_bytes_per_s" | "concurrent_query_slots" | "namespace_query_slots" | "unapplied_records" | "unapplied_bytes" | "storage_bytes" | "metadata_ops_rate";
                    namespace?: string;
                    /** @description Within the bounds GET /v1/quotas lists */
                    value: number | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        name?: string;
                        namespace?: string | null;
                        org?: string;
                        value?: number | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getOrgUsage: {
        parameters: {
            query?: {
                cursor?: string;
                metric?: "requests" | "ingest_bytes" | "storage_bytes" | "unapplied_records";
                page_size?: number;
                since?: number;
            };
            header?: never;
            path: {
                org: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items?: {
                            metric?: string;
                            ns?: number | null;
                            updated?: number;
                            value?: number;
                            window?: number;
                        }[];
                        /** @description Where the next page starts; null on the last page */
                        next_cursor?: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getPlacement: {
        parameters: {
            query: {
                collection?: string;
                ns: string;
                org?: string;
                replicas?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        keys?: {
                            collection?: string;
                            /** @description The placement key (what is hashed: ns/<id> for a small namespace) */
                            key?: string;
                            /** @enum {string} */
                            kind?: "namespace" | "collection";
                            owner?: string | null;
                            replicas?: string[];
                            /** @description The nodes it is placed among: gateway (the quota bucket), query (reads and queries) */
                            role?: string;
                        }[];
                        namespace?: {
                            id?: number;
                            name?: string;
                            /** @enum {string} */
                            size_class?: "small" | "large";
                        };
                        nodes?: {
                            id?: string;
                            /** @description Requests the answering node has forwarded to it and not yet had answered */
                            in_flight?: number;
                            /** @description Keys listed here that the node owns */
                            owned?: number;
                            roles?: string[];
                            weight?: number;
                            zone?: string | null;
                        }[];
                        /** @description The answering node's membership view */
                        view?: {
                            nodes?: number;
                            version?: number;
                        };
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getQuotas: {
        parameters: {
            query?: {
                namespace?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        bounds?: {
                            [key: string]: {
                                integer?: boolean;
                                max?: number;
                                min?: number;
                            };
                        };
                        defaults?: {
                            [key: string]: number;
                        };
                        effective?: {
                            [key: string]: number;
                        };
                        /** @description Live gateways; each enforces rate quotas ÷ this */
                        gateways?: number;
                        overrides?: {
                            name?: string;
                            ns?: number | null;
                            org?: string;
                            value?: number;
                        }[];
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
    getUsage: {
        parameters: {
            query?: {
                cursor?: string;
                metric?: "requests" | "ingest_bytes" | "storage_bytes" | "unapplied_records";
                page_size?: number;
                since?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items?: {
                            metric?: string;
                            ns?: number | null;
                            updated?: number;
                            value?: number;
                            window?: number;
                        }[];
                        /** @description Where the next page starts; null on the last page */
                        next_cursor?: string | null;
                    };
                };
            };
            /** @description Error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            code: string;
                            field?: string;
                            message: string;
                        };
                    };
                };
            };
        };
    };
}
