// Original file: src/meta/backends/remote/loam_remote.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AcquireLeaseRequest as _loam_remote_v1_AcquireLeaseRequest, AcquireLeaseRequest__Output as _loam_remote_v1_AcquireLeaseRequest__Output } from '../../../loam/remote/v1/AcquireLeaseRequest.js';
import type { Aliases as _loam_remote_v1_Aliases, Aliases__Output as _loam_remote_v1_Aliases__Output } from '../../../loam/remote/v1/Aliases.js';
import type { BoolValue as _loam_remote_v1_BoolValue, BoolValue__Output as _loam_remote_v1_BoolValue__Output } from '../../../loam/remote/v1/BoolValue.js';
import type { Capabilities as _loam_remote_v1_Capabilities, Capabilities__Output as _loam_remote_v1_Capabilities__Output } from '../../../loam/remote/v1/Capabilities.js';
import type { CasPointerRequest as _loam_remote_v1_CasPointerRequest, CasPointerRequest__Output as _loam_remote_v1_CasPointerRequest__Output } from '../../../loam/remote/v1/CasPointerRequest.js';
import type { ChangeEvent as _loam_remote_v1_ChangeEvent, ChangeEvent__Output as _loam_remote_v1_ChangeEvent__Output } from '../../../loam/remote/v1/ChangeEvent.js';
import type { ChangesPage as _loam_remote_v1_ChangesPage, ChangesPage__Output as _loam_remote_v1_ChangesPage__Output } from '../../../loam/remote/v1/ChangesPage.js';
import type { ChangesSinceRequest as _loam_remote_v1_ChangesSinceRequest, ChangesSinceRequest__Output as _loam_remote_v1_ChangesSinceRequest__Output } from '../../../loam/remote/v1/ChangesSinceRequest.js';
import type { ClaimObjectRequest as _loam_remote_v1_ClaimObjectRequest, ClaimObjectRequest__Output as _loam_remote_v1_ClaimObjectRequest__Output } from '../../../loam/remote/v1/ClaimObjectRequest.js';
import type { ClaimResult as _loam_remote_v1_ClaimResult, ClaimResult__Output as _loam_remote_v1_ClaimResult__Output } from '../../../loam/remote/v1/ClaimResult.js';
import type { Collection as _loam_remote_v1_Collection, Collection__Output as _loam_remote_v1_Collection__Output } from '../../../loam/remote/v1/Collection.js';
import type { CollectionByNameRequest as _loam_remote_v1_CollectionByNameRequest, CollectionByNameRequest__Output as _loam_remote_v1_CollectionByNameRequest__Output } from '../../../loam/remote/v1/CollectionByNameRequest.js';
import type { CollectionHead as _loam_remote_v1_CollectionHead, CollectionHead__Output as _loam_remote_v1_CollectionHead__Output } from '../../../loam/remote/v1/CollectionHead.js';
import type { CollectionHeadRequest as _loam_remote_v1_CollectionHeadRequest, CollectionHeadRequest__Output as _loam_remote_v1_CollectionHeadRequest__Output } from '../../../loam/remote/v1/CollectionHeadRequest.js';
import type { CollectionPage as _loam_remote_v1_CollectionPage, CollectionPage__Output as _loam_remote_v1_CollectionPage__Output } from '../../../loam/remote/v1/CollectionPage.js';
import type { CommitWalBatchRequest as _loam_remote_v1_CommitWalBatchRequest, CommitWalBatchRequest__Output as _loam_remote_v1_CommitWalBatchRequest__Output } from '../../../loam/remote/v1/CommitWalBatchRequest.js';
import type { CommitWalBatchResult as _loam_remote_v1_CommitWalBatchResult, CommitWalBatchResult__Output as _loam_remote_v1_CommitWalBatchResult__Output } from '../../../loam/remote/v1/CommitWalBatchResult.js';
import type { CommitWalRequest as _loam_remote_v1_CommitWalRequest, CommitWalRequest__Output as _loam_remote_v1_CommitWalRequest__Output } from '../../../loam/remote/v1/CommitWalRequest.js';
import type { CommitWalStreamRequest as _loam_remote_v1_CommitWalStreamRequest, CommitWalStreamRequest__Output as _loam_remote_v1_CommitWalStreamRequest__Output } from '../../../loam/remote/v1/CommitWalStreamRequest.js';
import type { CommitWalStreamResult as _loam_remote_v1_CommitWalStreamResult, CommitWalStreamResult__Output as _loam_remote_v1_CommitWalStreamResult__Output } from '../../../loam/remote/v1/CommitWalStreamResult.js';
import type { CreateCollectionRequest as _loam_remote_v1_CreateCollectionRequest, CreateCollectionRequest__Output as _loam_remote_v1_CreateCollectionRequest__Output } from '../../../loam/remote/v1/CreateCollectionRequest.js';
import type { CreateNamespaceRequest as _loam_remote_v1_CreateNamespaceRequest, CreateNamespaceRequest__Output as _loam_remote_v1_CreateNamespaceRequest__Output } from '../../../loam/remote/v1/CreateNamespaceRequest.js';
import type { CreateStreamRequest as _loam_remote_v1_CreateStreamRequest, CreateStreamRequest__Output as _loam_remote_v1_CreateStreamRequest__Output } from '../../../loam/remote/v1/CreateStreamRequest.js';
import type { CreateTagRequest as _loam_remote_v1_CreateTagRequest, CreateTagRequest__Output as _loam_remote_v1_CreateTagRequest__Output } from '../../../loam/remote/v1/CreateTagRequest.js';
import type { DropCollectionRequest as _loam_remote_v1_DropCollectionRequest, DropCollectionRequest__Output as _loam_remote_v1_DropCollectionRequest__Output } from '../../../loam/remote/v1/DropCollectionRequest.js';
import type { DropNamespaceRequest as _loam_remote_v1_DropNamespaceRequest, DropNamespaceRequest__Output as _loam_remote_v1_DropNamespaceRequest__Output } from '../../../loam/remote/v1/DropNamespaceRequest.js';
import type { DropStreamRequest as _loam_remote_v1_DropStreamRequest, DropStreamRequest__Output as _loam_remote_v1_DropStreamRequest__Output } from '../../../loam/remote/v1/DropStreamRequest.js';
import type { DropTagRequest as _loam_remote_v1_DropTagRequest, DropTagRequest__Output as _loam_remote_v1_DropTagRequest__Output } from '../../../loam/remote/v1/DropTagRequest.js';
import type { DueHeadPage as _loam_remote_v1_DueHeadPage, DueHeadPage__Output as _loam_remote_v1_DueHeadPage__Output } from '../../../loam/remote/v1/DueHeadPage.js';
import type { DueHeadsRequest as _loam_remote_v1_DueHeadsRequest, DueHeadsRequest__Output as _loam_remote_v1_DueHeadsRequest__Output } from '../../../loam/remote/v1/DueHeadsRequest.js';
import type { Empty as _loam_remote_v1_Empty, Empty__Output as _loam_remote_v1_Empty__Output } from '../../../loam/remote/v1/Empty.js';
import type { GetAliasesRequest as _loam_remote_v1_GetAliasesRequest, GetAliasesRequest__Output as _loam_remote_v1_GetAliasesRequest__Output } from '../../../loam/remote/v1/GetAliasesRequest.js';
import type { GetCollectionRequest as _loam_remote_v1_GetCollectionRequest, GetCollectionRequest__Output as _loam_remote_v1_GetCollectionRequest__Output } from '../../../loam/remote/v1/GetCollectionRequest.js';
import type { GetLeaseRequest as _loam_remote_v1_GetLeaseRequest, GetLeaseRequest__Output as _loam_remote_v1_GetLeaseRequest__Output } from '../../../loam/remote/v1/GetLeaseRequest.js';
import type { GetNamespaceRequest as _loam_remote_v1_GetNamespaceRequest, GetNamespaceRequest__Output as _loam_remote_v1_GetNamespaceRequest__Output } from '../../../loam/remote/v1/GetNamespaceRequest.js';
import type { GetPointerRequest as _loam_remote_v1_GetPointerRequest, GetPointerRequest__Output as _loam_remote_v1_GetPointerRequest__Output } from '../../../loam/remote/v1/GetPointerRequest.js';
import type { GetStreamRequest as _loam_remote_v1_GetStreamRequest, GetStreamRequest__Output as _loam_remote_v1_GetStreamRequest__Output } from '../../../loam/remote/v1/GetStreamRequest.js';
import type { JanitorRequest as _loam_remote_v1_JanitorRequest, JanitorRequest__Output as _loam_remote_v1_JanitorRequest__Output } from '../../../loam/remote/v1/JanitorRequest.js';
import type { JanitorResult as _loam_remote_v1_JanitorResult, JanitorResult__Output as _loam_remote_v1_JanitorResult__Output } from '../../../loam/remote/v1/JanitorResult.js';
import type { Lease as _loam_remote_v1_Lease, Lease__Output as _loam_remote_v1_Lease__Output } from '../../../loam/remote/v1/Lease.js';
import type { ListCollectionsRequest as _loam_remote_v1_ListCollectionsRequest, ListCollectionsRequest__Output as _loam_remote_v1_ListCollectionsRequest__Output } from '../../../loam/remote/v1/ListCollectionsRequest.js';
import type { ListNamespacesRequest as _loam_remote_v1_ListNamespacesRequest, ListNamespacesRequest__Output as _loam_remote_v1_ListNamespacesRequest__Output } from '../../../loam/remote/v1/ListNamespacesRequest.js';
import type { ListStreamsRequest as _loam_remote_v1_ListStreamsRequest, ListStreamsRequest__Output as _loam_remote_v1_ListStreamsRequest__Output } from '../../../loam/remote/v1/ListStreamsRequest.js';
import type { ListTagsRequest as _loam_remote_v1_ListTagsRequest, ListTagsRequest__Output as _loam_remote_v1_ListTagsRequest__Output } from '../../../loam/remote/v1/ListTagsRequest.js';
import type { Namespace as _loam_remote_v1_Namespace, Namespace__Output as _loam_remote_v1_Namespace__Output } from '../../../loam/remote/v1/Namespace.js';
import type { NamespaceByNameRequest as _loam_remote_v1_NamespaceByNameRequest, NamespaceByNameRequest__Output as _loam_remote_v1_NamespaceByNameRequest__Output } from '../../../loam/remote/v1/NamespaceByNameRequest.js';
import type { NamespacePage as _loam_remote_v1_NamespacePage, NamespacePage__Output as _loam_remote_v1_NamespacePage__Output } from '../../../loam/remote/v1/NamespacePage.js';
import type { ObjectRefRequest as _loam_remote_v1_ObjectRefRequest, ObjectRefRequest__Output as _loam_remote_v1_ObjectRefRequest__Output } from '../../../loam/remote/v1/ObjectRefRequest.js';
import type { OptionalLease as _loam_remote_v1_OptionalLease, OptionalLease__Output as _loam_remote_v1_OptionalLease__Output } from '../../../loam/remote/v1/OptionalLease.js';
import type { OptionalObjectRef as _loam_remote_v1_OptionalObjectRef, OptionalObjectRef__Output as _loam_remote_v1_OptionalObjectRef__Output } from '../../../loam/remote/v1/OptionalObjectRef.js';
import type { OptionalPointer as _loam_remote_v1_OptionalPointer, OptionalPointer__Output as _loam_remote_v1_OptionalPointer__Output } from '../../../loam/remote/v1/OptionalPointer.js';
import type { OptionalPointerVersion as _loam_remote_v1_OptionalPointerVersion, OptionalPointerVersion__Output as _loam_remote_v1_OptionalPointerVersion__Output } from '../../../loam/remote/v1/OptionalPointerVersion.js';
import type { PartitionHead as _loam_remote_v1_PartitionHead, PartitionHead__Output as _loam_remote_v1_PartitionHead__Output } from '../../../loam/remote/v1/PartitionHead.js';
import type { PartitionIndex as _loam_remote_v1_PartitionIndex, PartitionIndex__Output as _loam_remote_v1_PartitionIndex__Output } from '../../../loam/remote/v1/PartitionIndex.js';
import type { PartitionIndexRequest as _loam_remote_v1_PartitionIndexRequest, PartitionIndexRequest__Output as _loam_remote_v1_PartitionIndexRequest__Output } from '../../../loam/remote/v1/PartitionIndexRequest.js';
import type { Pointer as _loam_remote_v1_Pointer, Pointer__Output as _loam_remote_v1_Pointer__Output } from '../../../loam/remote/v1/Pointer.js';
import type { PointerVersionRequest as _loam_remote_v1_PointerVersionRequest, PointerVersionRequest__Output as _loam_remote_v1_PointerVersionRequest__Output } from '../../../loam/remote/v1/PointerVersionRequest.js';
import type { ReleaseClaimRequest as _loam_remote_v1_ReleaseClaimRequest, ReleaseClaimRequest__Output as _loam_remote_v1_ReleaseClaimRequest__Output } from '../../../loam/remote/v1/ReleaseClaimRequest.js';
import type { ReleaseLeaseRequest as _loam_remote_v1_ReleaseLeaseRequest, ReleaseLeaseRequest__Output as _loam_remote_v1_ReleaseLeaseRequest__Output } from '../../../loam/remote/v1/ReleaseLeaseRequest.js';
import type { RenewLeaseRequest as _loam_remote_v1_RenewLeaseRequest, RenewLeaseRequest__Output as _loam_remote_v1_RenewLeaseRequest__Output } from '../../../loam/remote/v1/RenewLeaseRequest.js';
import type { RetiredWalObjectPage as _loam_remote_v1_RetiredWalObjectPage, RetiredWalObjectPage__Output as _loam_remote_v1_RetiredWalObjectPage__Output } from '../../../loam/remote/v1/RetiredWalObjectPage.js';
import type { RetiredWalObjectsRequest as _loam_remote_v1_RetiredWalObjectsRequest, RetiredWalObjectsRequest__Output as _loam_remote_v1_RetiredWalObjectsRequest__Output } from '../../../loam/remote/v1/RetiredWalObjectsRequest.js';
import type { RewriteTagRequest as _loam_remote_v1_RewriteTagRequest, RewriteTagRequest__Output as _loam_remote_v1_RewriteTagRequest__Output } from '../../../loam/remote/v1/RewriteTagRequest.js';
import type { SegmentReferencedRequest as _loam_remote_v1_SegmentReferencedRequest, SegmentReferencedRequest__Output as _loam_remote_v1_SegmentReferencedRequest__Output } from '../../../loam/remote/v1/SegmentReferencedRequest.js';
import type { SetRetentionRequest as _loam_remote_v1_SetRetentionRequest, SetRetentionRequest__Output as _loam_remote_v1_SetRetentionRequest__Output } from '../../../loam/remote/v1/SetRetentionRequest.js';
import type { SettleHeadRequest as _loam_remote_v1_SettleHeadRequest, SettleHeadRequest__Output as _loam_remote_v1_SettleHeadRequest__Output } from '../../../loam/remote/v1/SettleHeadRequest.js';
import type { Stream as _loam_remote_v1_Stream, Stream__Output as _loam_remote_v1_Stream__Output } from '../../../loam/remote/v1/Stream.js';
import type { StreamPage as _loam_remote_v1_StreamPage, StreamPage__Output as _loam_remote_v1_StreamPage__Output } from '../../../loam/remote/v1/StreamPage.js';
import type { StreamState as _loam_remote_v1_StreamState, StreamState__Output as _loam_remote_v1_StreamState__Output } from '../../../loam/remote/v1/StreamState.js';
import type { StreamStateRequest as _loam_remote_v1_StreamStateRequest, StreamStateRequest__Output as _loam_remote_v1_StreamStateRequest__Output } from '../../../loam/remote/v1/StreamStateRequest.js';
import type { SwapSegmentRequest as _loam_remote_v1_SwapSegmentRequest, SwapSegmentRequest__Output as _loam_remote_v1_SwapSegmentRequest__Output } from '../../../loam/remote/v1/SwapSegmentRequest.js';
import type { SwapSegmentResult as _loam_remote_v1_SwapSegmentResult, SwapSegmentResult__Output as _loam_remote_v1_SwapSegmentResult__Output } from '../../../loam/remote/v1/SwapSegmentResult.js';
import type { Tag as _loam_remote_v1_Tag, Tag__Output as _loam_remote_v1_Tag__Output } from '../../../loam/remote/v1/Tag.js';
import type { TagPage as _loam_remote_v1_TagPage, TagPage__Output as _loam_remote_v1_TagPage__Output } from '../../../loam/remote/v1/TagPage.js';
import type { TrimPartitionRequest as _loam_remote_v1_TrimPartitionRequest, TrimPartitionRequest__Output as _loam_remote_v1_TrimPartitionRequest__Output } from '../../../loam/remote/v1/TrimPartitionRequest.js';
import type { UpdateAliasesRequest as _loam_remote_v1_UpdateAliasesRequest, UpdateAliasesRequest__Output as _loam_remote_v1_UpdateAliasesRequest__Output } from '../../../loam/remote/v1/UpdateAliasesRequest.js';
import type { UpdateCollectionSchemaRequest as _loam_remote_v1_UpdateCollectionSchemaRequest, UpdateCollectionSchemaRequest__Output as _loam_remote_v1_UpdateCollectionSchemaRequest__Output } from '../../../loam/remote/v1/UpdateCollectionSchemaRequest.js';
import type { VersionValue as _loam_remote_v1_VersionValue, VersionValue__Output as _loam_remote_v1_VersionValue__Output } from '../../../loam/remote/v1/VersionValue.js';
import type { WalCommitResult as _loam_remote_v1_WalCommitResult, WalCommitResult__Output as _loam_remote_v1_WalCommitResult__Output } from '../../../loam/remote/v1/WalCommitResult.js';
import type { WatchChangesRequest as _loam_remote_v1_WatchChangesRequest, WatchChangesRequest__Output as _loam_remote_v1_WatchChangesRequest__Output } from '../../../loam/remote/v1/WatchChangesRequest.js';

export interface MetaStoreClient extends grpc.Client {
  AcquireLease(argument: _loam_remote_v1_AcquireLeaseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Lease__Output>): grpc.ClientUnaryCall;
  AcquireLease(argument: _loam_remote_v1_AcquireLeaseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Lease__Output>): grpc.ClientUnaryCall;
  AcquireLease(argument: _loam_remote_v1_AcquireLeaseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Lease__Output>): grpc.ClientUnaryCall;
  AcquireLease(argument: _loam_remote_v1_AcquireLeaseRequest, callback: grpc.requestCallback<_loam_remote_v1_Lease__Output>): grpc.ClientUnaryCall;
  acquireLease(argument: _loam_remote_v1_AcquireLeaseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Lease__Output>): grpc.ClientUnaryCall;
  acquireLease(argument: _loam_remote_v1_AcquireLeaseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Lease__Output>): grpc.ClientUnaryCall;
  acquireLease(argument: _loam_remote_v1_AcquireLeaseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Lease__Output>): grpc.ClientUnaryCall;
  acquireLease(argument: _loam_remote_v1_AcquireLeaseRequest, callback: grpc.requestCallback<_loam_remote_v1_Lease__Output>): grpc.ClientUnaryCall;
  
  Capabilities(argument: _loam_remote_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Capabilities__Output>): grpc.ClientUnaryCall;
  Capabilities(argument: _loam_remote_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Capabilities__Output>): grpc.ClientUnaryCall;
  Capabilities(argument: _loam_remote_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Capabilities__Output>): grpc.ClientUnaryCall;
  Capabilities(argument: _loam_remote_v1_Empty, callback: grpc.requestCallback<_loam_remote_v1_Capabilities__Output>): grpc.ClientUnaryCall;
  capabilities(argument: _loam_remote_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Capabilities__Output>): grpc.ClientUnaryCall;
  capabilities(argument: _loam_remote_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Capabilities__Output>): grpc.ClientUnaryCall;
  capabilities(argument: _loam_remote_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Capabilities__Output>): grpc.ClientUnaryCall;
  capabilities(argument: _loam_remote_v1_Empty, callback: grpc.requestCallback<_loam_remote_v1_Capabilities__Output>): grpc.ClientUnaryCall;
  
  CasPointer(argument: _loam_remote_v1_CasPointerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Pointer__Output>): grpc.ClientUnaryCall;
  CasPointer(argument: _loam_remote_v1_CasPointerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Pointer__Output>): grpc.ClientUnaryCall;
  CasPointer(argument: _loam_remote_v1_CasPointerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Pointer__Output>): grpc.ClientUnaryCall;
  CasPointer(argument: _loam_remote_v1_CasPointerRequest, callback: grpc.requestCallback<_loam_remote_v1_Pointer__Output>): grpc.ClientUnaryCall;
  casPointer(argument: _loam_remote_v1_CasPointerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Pointer__Output>): grpc.ClientUnaryCall;
  casPointer(argument: _loam_remote_v1_CasPointerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Pointer__Output>): grpc.ClientUnaryCall;
  casPointer(argument: _loam_remote_v1_CasPointerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Pointer__Output>): grpc.ClientUnaryCall;
  casPointer(argument: _loam_remote_v1_CasPointerRequest, callback: grpc.requestCallback<_loam_remote_v1_Pointer__Output>): grpc.ClientUnaryCall;
  
  CatalogVersion(argument: _loam_remote_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_VersionValue__Output>): grpc.ClientUnaryCall;
  CatalogVersion(argument: _loam_remote_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_VersionValue__Output>): grpc.ClientUnaryCall;
  CatalogVersion(argument: _loam_remote_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_VersionValue__Output>): grpc.ClientUnaryCall;
  CatalogVersion(argument: _loam_remote_v1_Empty, callback: grpc.requestCallback<_loam_remote_v1_VersionValue__Output>): grpc.ClientUnaryCall;
  catalogVersion(argument: _loam_remote_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_VersionValue__Output>): grpc.ClientUnaryCall;
  catalogVersion(argument: _loam_remote_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_VersionValue__Output>): grpc.ClientUnaryCall;
  catalogVersion(argument: _loam_remote_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_VersionValue__Output>): grpc.ClientUnaryCall;
  catalogVersion(argument: _loam_remote_v1_Empty, callback: grpc.requestCallback<_loam_remote_v1_VersionValue__Output>): grpc.ClientUnaryCall;
  
  ChangesSince(argument: _loam_remote_v1_ChangesSinceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ChangesPage__Output>): grpc.ClientUnaryCall;
  ChangesSince(argument: _loam_remote_v1_ChangesSinceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_ChangesPage__Output>): grpc.ClientUnaryCall;
  ChangesSince(argument: _loam_remote_v1_ChangesSinceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ChangesPage__Output>): grpc.ClientUnaryCall;
  ChangesSince(argument: _loam_remote_v1_ChangesSinceRequest, callback: grpc.requestCallback<_loam_remote_v1_ChangesPage__Output>): grpc.ClientUnaryCall;
  changesSince(argument: _loam_remote_v1_ChangesSinceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ChangesPage__Output>): grpc.ClientUnaryCall;
  changesSince(argument: _loam_remote_v1_ChangesSinceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_ChangesPage__Output>): grpc.ClientUnaryCall;
  changesSince(argument: _loam_remote_v1_ChangesSinceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ChangesPage__Output>): grpc.ClientUnaryCall;
  changesSince(argument: _loam_remote_v1_ChangesSinceRequest, callback: grpc.requestCallback<_loam_remote_v1_ChangesPage__Output>): grpc.ClientUnaryCall;
  
  ClaimObject(argument: _loam_remote_v1_ClaimObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ClaimResult__Output>): grpc.ClientUnaryCall;
  ClaimObject(argument: _loam_remote_v1_ClaimObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_ClaimResult__Output>): grpc.ClientUnaryCall;
  ClaimObject(argument: _loam_remote_v1_ClaimObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ClaimResult__Output>): grpc.ClientUnaryCall;
  ClaimObject(argument: _loam_remote_v1_ClaimObjectRequest, callback: grpc.requestCallback<_loam_remote_v1_ClaimResult__Output>): grpc.ClientUnaryCall;
  claimObject(argument: _loam_remote_v1_ClaimObjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ClaimResult__Output>): grpc.ClientUnaryCall;
  claimObject(argument: _loam_remote_v1_ClaimObjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_ClaimResult__Output>): grpc.ClientUnaryCall;
  claimObject(argument: _loam_remote_v1_ClaimObjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_ClaimResult__Output>): grpc.ClientUnaryCall;
  claimObject(argument: _loam_remote_v1_ClaimObjectRequest, callback: grpc.requestCallback<_loam_remote_v1_ClaimResult__Output>): grpc.ClientUnaryCall;
  
  CollectionByName(argument: _loam_remote_v1_CollectionByNameRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  CollectionByName(argument: _loam_remote_v1_CollectionByNameRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  CollectionByName(argument: _loam_remote_v1_CollectionByNameRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  CollectionByName(argument: _loam_remote_v1_CollectionByNameRequest, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  collectionByName(argument: _loam_remote_v1_CollectionByNameRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  collectionByName(argument: _loam_remote_v1_CollectionByNameRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  collectionByName(argument: _loam_remote_v1_CollectionByNameRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  collectionByName(argument: _loam_remote_v1_CollectionByNameRequest, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  
  CollectionHead(argument: _loam_remote_v1_CollectionHeadRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_CollectionHead__Output>): grpc.ClientUnaryCall;
  CollectionHead(argument: _loam_remote_v1_CollectionHeadRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_CollectionHead__Output>): grpc.ClientUnaryCall;
  CollectionHead(argument: _loam_remote_v1_CollectionHeadRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_CollectionHead__Output>): grpc.ClientUnaryCall;
  CollectionHead(argument: _loam_remote_v1_CollectionHeadRequest, callback: grpc.requestCallback<_loam_remote_v1_CollectionHead__Output>): grpc.ClientUnaryCall;
  collectionHead(argument: _loam_remote_v1_CollectionHeadRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_CollectionHead__Output>): grpc.ClientUnaryCall;
  collectionHead(argument: _loam_remote_v1_CollectionHeadRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_CollectionHead__Output>): grpc.ClientUnaryCall;
  collectionHead(argument: _loam_remote_v1_CollectionHeadRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_CollectionHead__Output>): grpc.ClientUnaryCall;
  collectionHead(argument: _loam_remote_v1_CollectionHeadRequest, callback: grpc.requestCallback<_loam_remote_v1_CollectionHead__Output>): grpc.ClientUnaryCall;
  
  CommitWal(argument: _loam_remote_v1_CommitWalRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_WalCommitResult__Output>): grpc.ClientUnaryCall;
  CommitWal(argument: _loam_remote_v1_CommitWalRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_WalCommitResult__Output>): grpc.ClientUnaryCall;
  CommitWal(argument: _loam_remote_v1_CommitWalRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_WalCommitResult__Output>): grpc.ClientUnaryCall;
  CommitWal(argument: _loam_remote_v1_CommitWalRequest, callback: grpc.requestCallback<_loam_remote_v1_WalCommitResult__Output>): grpc.ClientUnaryCall;
  commitWal(argument: _loam_remote_v1_CommitWalRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_WalCommitResult__Output>): grpc.ClientUnaryCall;
  commitWal(argument: _loam_remote_v1_CommitWalRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_WalCommitResult__Output>): grpc.ClientUnaryCall;
  commitWal(argument: _loam_remote_v1_CommitWalRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_WalCommitResult__Output>): grpc.ClientUnaryCall;
  commitWal(argument: _loam_remote_v1_CommitWalRequest, callback: grpc.requestCallback<_loam_remote_v1_WalCommitResult__Output>): grpc.ClientUnaryCall;
  
  CommitWalBatch(argument: _loam_remote_v1_CommitWalBatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_CommitWalBatchResult__Output>): grpc.ClientUnaryCall;
  CommitWalBatch(argument: _loam_remote_v1_CommitWalBatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_CommitWalBatchResult__Output>): grpc.ClientUnaryCall;
  CommitWalBatch(argument: _loam_remote_v1_CommitWalBatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_CommitWalBatchResult__Output>): grpc.ClientUnaryCall;
  CommitWalBatch(argument: _loam_remote_v1_CommitWalBatchRequest, callback: grpc.requestCallback<_loam_remote_v1_CommitWalBatchResult__Output>): grpc.ClientUnaryCall;
  commitWalBatch(argument: _loam_remote_v1_CommitWalBatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_CommitWalBatchResult__Output>): grpc.ClientUnaryCall;
  commitWalBatch(argument: _loam_remote_v1_CommitWalBatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_CommitWalBatchResult__Output>): grpc.ClientUnaryCall;
  commitWalBatch(argument: _loam_remote_v1_CommitWalBatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_CommitWalBatchResult__Output>): grpc.ClientUnaryCall;
  commitWalBatch(argument: _loam_remote_v1_CommitWalBatchRequest, callback: grpc.requestCallback<_loam_remote_v1_CommitWalBatchResult__Output>): grpc.ClientUnaryCall;
  
  CommitWalStream(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_loam_remote_v1_CommitWalStreamRequest, _loam_remote_v1_CommitWalStreamResult__Output>;
  CommitWalStream(options?: grpc.CallOptions): grpc.ClientDuplexStream<_loam_remote_v1_CommitWalStreamRequest, _loam_remote_v1_CommitWalStreamResult__Output>;
  commitWalStream(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_loam_remote_v1_CommitWalStreamRequest, _loam_remote_v1_CommitWalStreamResult__Output>;
  commitWalStream(options?: grpc.CallOptions): grpc.ClientDuplexStream<_loam_remote_v1_CommitWalStreamRequest, _loam_remote_v1_CommitWalStreamResult__Output>;
  
  CreateCollection(argument: _loam_remote_v1_CreateCollectionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  CreateCollection(argument: _loam_remote_v1_CreateCollectionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  CreateCollection(argument: _loam_remote_v1_CreateCollectionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  CreateCollection(argument: _loam_remote_v1_CreateCollectionRequest, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  createCollection(argument: _loam_remote_v1_CreateCollectionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  createCollection(argument: _loam_remote_v1_CreateCollectionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  createCollection(argument: _loam_remote_v1_CreateCollectionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  createCollection(argument: _loam_remote_v1_CreateCollectionRequest, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  
  CreateNamespace(argument: _loam_remote_v1_CreateNamespaceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Namespace__Output>): grpc.ClientUnaryCall;
  CreateNamespace(argument: _loam_remote_v1_CreateNamespaceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Namespace__Output>): grpc.ClientUnaryCall;
  CreateNamespace(argument: _loam_remote_v1_CreateNamespaceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Namespace__Output>): grpc.ClientUnaryCall;
  CreateNamespace(argument: _loam_remote_v1_CreateNamespaceRequest, callback: grpc.requestCallback<_loam_remote_v1_Namespace__Output>): grpc.ClientUnaryCall;
  createNamespace(argument: _loam_remote_v1_CreateNamespaceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Namespace__Output>): grpc.ClientUnaryCall;
  createNamespace(argument: _loam_remote_v1_CreateNamespaceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Namespace__Output>): grpc.ClientUnaryCall;
  createNamespace(argument: _loam_remote_v1_CreateNamespaceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Namespace__Output>): grpc.ClientUnaryCall;
  createNamespace(argument: _loam_remote_v1_CreateNamespaceRequest, callback: grpc.requestCallback<_loam_remote_v1_Namespace__Output>): grpc.ClientUnaryCall;
  
  CreateStream(argument: _loam_remote_v1_CreateStreamRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Stream__Output>): grpc.ClientUnaryCall;
  CreateStream(argument: _loam_remote_v1_CreateStreamRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Stream__Output>): grpc.ClientUnaryCall;
  CreateStream(argument: _loam_remote_v1_CreateStreamRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Stream__Output>): grpc.ClientUnaryCall;
  CreateStream(argument: _loam_remote_v1_CreateStreamRequest, callback: grpc.requestCallback<_loam_remote_v1_Stream__Output>): grpc.ClientUnaryCall;
  createStream(argument: _loam_remote_v1_CreateStreamRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Stream__Output>): grpc.ClientUnaryCall;
  createStream(argument: _loam_remote_v1_CreateStreamRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Stream__Output>): grpc.ClientUnaryCall;
  createStream(argument: _loam_remote_v1_CreateStreamRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Stream__Output>): grpc.ClientUnaryCall;
  createStream(argument: _loam_remote_v1_CreateStreamRequest, callback: grpc.requestCallback<_loam_remote_v1_Stream__Output>): grpc.ClientUnaryCall;
  
  CreateTag(argument: _loam_remote_v1_CreateTagRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Tag__Output>): grpc.ClientUnaryCall;
  CreateTag(argument: _loam_remote_v1_CreateTagRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Tag__Output>): grpc.ClientUnaryCall;
  CreateTag(argument: _loam_remote_v1_CreateTagRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Tag__Output>): grpc.ClientUnaryCall;
  CreateTag(argument: _loam_remote_v1_CreateTagRequest, callback: grpc.requestCallback<_loam_remote_v1_Tag__Output>): grpc.ClientUnaryCall;
  createTag(argument: _loam_remote_v1_CreateTagRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Tag__Output>): grpc.ClientUnaryCall;
  createTag(argument: _loam_remote_v1_CreateTagRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Tag__Output>): grpc.ClientUnaryCall;
  createTag(argument: _loam_remote_v1_CreateTagRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Tag__Output>): grpc.ClientUnaryCall;
  createTag(argument: _loam_remote_v1_CreateTagRequest, callback: grpc.requestCallback<_loam_remote_v1_Tag__Output>): grpc.ClientUnaryCall;
  
  DropCollection(argument: _loam_remote_v1_DropCollectionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  DropCollection(argument: _loam_remote_v1_DropCollectionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  DropCollection(argument: _loam_remote_v1_DropCollectionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  DropCollection(argument: _loam_remote_v1_DropCollectionRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  dropCollection(argument: _loam_remote_v1_DropCollectionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  dropCollection(argument: _loam_remote_v1_DropCollectionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  dropCollection(argument: _loam_remote_v1_DropCollectionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  dropCollection(argument: _loam_remote_v1_DropCollectionRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  DropNamespace(argument: _loam_remote_v1_DropNamespaceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  DropNamespace(argument: _loam_remote_v1_DropNamespaceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  DropNamespace(argument: _loam_remote_v1_DropNamespaceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  DropNamespace(argument: _loam_remote_v1_DropNamespaceRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  dropNamespace(argument: _loam_remote_v1_DropNamespaceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  dropNamespace(argument: _loam_remote_v1_DropNamespaceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  dropNamespace(argument: _loam_remote_v1_DropNamespaceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  dropNamespace(argument: _loam_remote_v1_DropNamespaceRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  DropStream(argument: _loam_remote_v1_DropStreamRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  DropStream(argument: _loam_remote_v1_DropStreamRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  DropStream(argument: _loam_remote_v1_DropStreamRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  DropStream(argument: _loam_remote_v1_DropStreamRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  dropStream(argument: _loam_remote_v1_DropStreamRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  dropStream(argument: _loam_remote_v1_DropStreamRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  dropStream(argument: _loam_remote_v1_DropStreamRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  dropStream(argument: _loam_remote_v1_DropStreamRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  DropTag(argument: _loam_remote_v1_DropTagRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  DropTag(argument: _loam_remote_v1_DropTagRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  DropTag(argument: _loam_remote_v1_DropTagRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  DropTag(argument: _loam_remote_v1_DropTagRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  dropTag(argument: _loam_remote_v1_DropTagRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  dropTag(argument: _loam_remote_v1_DropTagRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  dropTag(argument: _loam_remote_v1_DropTagRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  dropTag(argument: _loam_remote_v1_DropTagRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  DueHeads(argument: _loam_remote_v1_DueHeadsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_DueHeadPage__Output>): grpc.ClientUnaryCall;
  DueHeads(argument: _loam_remote_v1_DueHeadsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_DueHeadPage__Output>): grpc.ClientUnaryCall;
  DueHeads(argument: _loam_remote_v1_DueHeadsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_DueHeadPage__Output>): grpc.ClientUnaryCall;
  DueHeads(argument: _loam_remote_v1_DueHeadsRequest, callback: grpc.requestCallback<_loam_remote_v1_DueHeadPage__Output>): grpc.ClientUnaryCall;
  dueHeads(argument: _loam_remote_v1_DueHeadsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_DueHeadPage__Output>): grpc.ClientUnaryCall;
  dueHeads(argument: _loam_remote_v1_DueHeadsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_DueHeadPage__Output>): grpc.ClientUnaryCall;
  dueHeads(argument: _loam_remote_v1_DueHeadsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_DueHeadPage__Output>): grpc.ClientUnaryCall;
  dueHeads(argument: _loam_remote_v1_DueHeadsRequest, callback: grpc.requestCallback<_loam_remote_v1_DueHeadPage__Output>): grpc.ClientUnaryCall;
  
  GetAliases(argument: _loam_remote_v1_GetAliasesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Aliases__Output>): grpc.ClientUnaryCall;
  GetAliases(argument: _loam_remote_v1_GetAliasesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Aliases__Output>): grpc.ClientUnaryCall;
  GetAliases(argument: _loam_remote_v1_GetAliasesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Aliases__Output>): grpc.ClientUnaryCall;
  GetAliases(argument: _loam_remote_v1_GetAliasesRequest, callback: grpc.requestCallback<_loam_remote_v1_Aliases__Output>): grpc.ClientUnaryCall;
  getAliases(argument: _loam_remote_v1_GetAliasesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Aliases__Output>): grpc.ClientUnaryCall;
  getAliases(argument: _loam_remote_v1_GetAliasesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Aliases__Output>): grpc.ClientUnaryCall;
  getAliases(argument: _loam_remote_v1_GetAliasesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Aliases__Output>): grpc.ClientUnaryCall;
  getAliases(argument: _loam_remote_v1_GetAliasesRequest, callback: grpc.requestCallback<_loam_remote_v1_Aliases__Output>): grpc.ClientUnaryCall;
  
  GetCollection(argument: _loam_remote_v1_GetCollectionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  GetCollection(argument: _loam_remote_v1_GetCollectionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  GetCollection(argument: _loam_remote_v1_GetCollectionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  GetCollection(argument: _loam_remote_v1_GetCollectionRequest, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  getCollection(argument: _loam_remote_v1_GetCollectionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  getCollection(argument: _loam_remote_v1_GetCollectionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  getCollection(argument: _loam_remote_v1_GetCollectionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  getCollection(argument: _loam_remote_v1_GetCollectionRequest, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  
  GetLease(argument: _loam_remote_v1_GetLeaseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_OptionalLease__Output>): grpc.ClientUnaryCall;
  GetLease(argument: _loam_remote_v1_GetLeaseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_OptionalLease__Output>): grpc.ClientUnaryCall;
  GetLease(argument: _loam_remote_v1_GetLeaseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_OptionalLease__Output>): grpc.ClientUnaryCall;
  GetLease(argument: _loam_remote_v1_GetLeaseRequest, callback: grpc.requestCallback<_loam_remote_v1_OptionalLease__Output>): grpc.ClientUnaryCall;
  getLease(argument: _loam_remote_v1_GetLeaseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_OptionalLease__Output>): grpc.ClientUnaryCall;
  getLease(argument: _loam_remote_v1_GetLeaseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_OptionalLease__Output>): grpc.ClientUnaryCall;
  getLease(argument: _loam_remote_v1_GetLeaseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_OptionalLease__Output>): grpc.ClientUnaryCall;
  getLease(argument: _loam_remote_v1_GetLeaseRequest, callback: grpc.requestCallback<_loam_remote_v1_OptionalLease__Output>): grpc.ClientUnaryCall;
  
  GetNamespace(argument: _loam_remote_v1_GetNamespaceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Namespace__Output>): grpc.ClientUnaryCall;
  GetNamespace(argument: _loam_remote_v1_GetNamespaceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Namespace__Output>): grpc.ClientUnaryCall;
  GetNamespace(argument: _loam_remote_v1_GetNamespaceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Namespace__Output>): grpc.ClientUnaryCall;
  GetNamespace(argument: _loam_remote_v1_GetNamespaceRequest, callback: grpc.requestCallback<_loam_remote_v1_Namespace__Output>): grpc.ClientUnaryCall;
  getNamespace(argument: _loam_remote_v1_GetNamespaceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Namespace__Output>): grpc.ClientUnaryCall;
  getNamespace(argument: _loam_remote_v1_GetNamespaceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Namespace__Output>): grpc.ClientUnaryCall;
  getNamespace(argument: _loam_remote_v1_GetNamespaceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Namespace__Output>): grpc.ClientUnaryCall;
  getNamespace(argument: _loam_remote_v1_GetNamespaceRequest, callback: grpc.requestCallback<_loam_remote_v1_Namespace__Output>): grpc.ClientUnaryCall;
  
  GetObjectRef(argument: _loam_remote_v1_ObjectRefRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_OptionalObjectRef__Output>): grpc.ClientUnaryCall;
  GetObjectRef(argument: _loam_remote_v1_ObjectRefRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_OptionalObjectRef__Output>): grpc.ClientUnaryCall;
  GetObjectRef(argument: _loam_remote_v1_ObjectRefRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_OptionalObjectRef__Output>): grpc.ClientUnaryCall;
  GetObjectRef(argument: _loam_remote_v1_ObjectRefRequest, callback: grpc.requestCallback<_loam_remote_v1_OptionalObjectRef__Output>): grpc.ClientUnaryCall;
  getObjectRef(argument: _loam_remote_v1_ObjectRefRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_OptionalObjectRef__Output>): grpc.ClientUnaryCall;
  getObjectRef(argument: _loam_remote_v1_ObjectRefRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_OptionalObjectRef__Output>): grpc.ClientUnaryCall;
  getObjectRef(argument: _loam_remote_v1_ObjectRefRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_OptionalObjectRef__Output>): grpc.ClientUnaryCall;
  getObjectRef(argument: _loam_remote_v1_ObjectRefRequest, callback: grpc.requestCallback<_loam_remote_v1_OptionalObjectRef__Output>): grpc.ClientUnaryCall;
  
  GetPointer(argument: _loam_remote_v1_GetPointerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_OptionalPointer__Output>): grpc.ClientUnaryCall;
  GetPointer(argument: _loam_remote_v1_GetPointerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_OptionalPointer__Output>): grpc.ClientUnaryCall;
  GetPointer(argument: _loam_remote_v1_GetPointerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_OptionalPointer__Output>): grpc.ClientUnaryCall;
  GetPointer(argument: _loam_remote_v1_GetPointerRequest, callback: grpc.requestCallback<_loam_remote_v1_OptionalPointer__Output>): grpc.ClientUnaryCall;
  getPointer(argument: _loam_remote_v1_GetPointerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_OptionalPointer__Output>): grpc.ClientUnaryCall;
  getPointer(argument: _loam_remote_v1_GetPointerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_OptionalPointer__Output>): grpc.ClientUnaryCall;
  getPointer(argument: _loam_remote_v1_GetPointerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_OptionalPointer__Output>): grpc.ClientUnaryCall;
  getPointer(argument: _loam_remote_v1_GetPointerRequest, callback: grpc.requestCallback<_loam_remote_v1_OptionalPointer__Output>): grpc.ClientUnaryCall;
  
  GetStream(argument: _loam_remote_v1_GetStreamRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Stream__Output>): grpc.ClientUnaryCall;
  GetStream(argument: _loam_remote_v1_GetStreamRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Stream__Output>): grpc.ClientUnaryCall;
  GetStream(argument: _loam_remote_v1_GetStreamRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Stream__Output>): grpc.ClientUnaryCall;
  GetStream(argument: _loam_remote_v1_GetStreamRequest, callback: grpc.requestCallback<_loam_remote_v1_Stream__Output>): grpc.ClientUnaryCall;
  getStream(argument: _loam_remote_v1_GetStreamRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Stream__Output>): grpc.ClientUnaryCall;
  getStream(argument: _loam_remote_v1_GetStreamRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Stream__Output>): grpc.ClientUnaryCall;
  getStream(argument: _loam_remote_v1_GetStreamRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Stream__Output>): grpc.ClientUnaryCall;
  getStream(argument: _loam_remote_v1_GetStreamRequest, callback: grpc.requestCallback<_loam_remote_v1_Stream__Output>): grpc.ClientUnaryCall;
  
  Janitor(argument: _loam_remote_v1_JanitorRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_JanitorResult__Output>): grpc.ClientUnaryCall;
  Janitor(argument: _loam_remote_v1_JanitorRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_JanitorResult__Output>): grpc.ClientUnaryCall;
  Janitor(argument: _loam_remote_v1_JanitorRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_JanitorResult__Output>): grpc.ClientUnaryCall;
  Janitor(argument: _loam_remote_v1_JanitorRequest, callback: grpc.requestCallback<_loam_remote_v1_JanitorResult__Output>): grpc.ClientUnaryCall;
  janitor(argument: _loam_remote_v1_JanitorRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_JanitorResult__Output>): grpc.ClientUnaryCall;
  janitor(argument: _loam_remote_v1_JanitorRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_JanitorResult__Output>): grpc.ClientUnaryCall;
  janitor(argument: _loam_remote_v1_JanitorRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_JanitorResult__Output>): grpc.ClientUnaryCall;
  janitor(argument: _loam_remote_v1_JanitorRequest, callback: grpc.requestCallback<_loam_remote_v1_JanitorResult__Output>): grpc.ClientUnaryCall;
  
  ListCollections(argument: _loam_remote_v1_ListCollectionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_CollectionPage__Output>): grpc.ClientUnaryCall;
  ListCollections(argument: _loam_remote_v1_ListCollectionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_CollectionPage__Output>): grpc.ClientUnaryCall;
  ListCollections(argument: _loam_remote_v1_ListCollectionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_CollectionPage__Output>): grpc.ClientUnaryCall;
  ListCollections(argument: _loam_remote_v1_ListCollectionsRequest, callback: grpc.requestCallback<_loam_remote_v1_CollectionPage__Output>): grpc.ClientUnaryCall;
  listCollections(argument: _loam_remote_v1_ListCollectionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_CollectionPage__Output>): grpc.ClientUnaryCall;
  listCollections(argument: _loam_remote_v1_ListCollectionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_CollectionPage__Output>): grpc.ClientUnaryCall;
  listCollections(argument: _loam_remote_v1_ListCollectionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_CollectionPage__Output>): grpc.ClientUnaryCall;
  listCollections(argument: _loam_remote_v1_ListCollectionsRequest, callback: grpc.requestCallback<_loam_remote_v1_CollectionPage__Output>): grpc.ClientUnaryCall;
  
  ListNamespaces(argument: _loam_remote_v1_ListNamespacesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_NamespacePage__Output>): grpc.ClientUnaryCall;
  ListNamespaces(argument: _loam_remote_v1_ListNamespacesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_NamespacePage__Output>): grpc.ClientUnaryCall;
  ListNamespaces(argument: _loam_remote_v1_ListNamespacesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_NamespacePage__Output>): grpc.ClientUnaryCall;
  ListNamespaces(argument: _loam_remote_v1_ListNamespacesRequest, callback: grpc.requestCallback<_loam_remote_v1_NamespacePage__Output>): grpc.ClientUnaryCall;
  listNamespaces(argument: _loam_remote_v1_ListNamespacesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_NamespacePage__Output>): grpc.ClientUnaryCall;
  listNamespaces(argument: _loam_remote_v1_ListNamespacesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_NamespacePage__Output>): grpc.ClientUnaryCall;
  listNamespaces(argument: _loam_remote_v1_ListNamespacesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_NamespacePage__Output>): grpc.ClientUnaryCall;
  listNamespaces(argument: _loam_remote_v1_ListNamespacesRequest, callback: grpc.requestCallback<_loam_remote_v1_NamespacePage__Output>): grpc.ClientUnaryCall;
  
  ListStreams(argument: _loam_remote_v1_ListStreamsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_StreamPage__Output>): grpc.ClientUnaryCall;
  ListStreams(argument: _loam_remote_v1_ListStreamsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_StreamPage__Output>): grpc.ClientUnaryCall;
  ListStreams(argument: _loam_remote_v1_ListStreamsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_StreamPage__Output>): grpc.ClientUnaryCall;
  ListStreams(argument: _loam_remote_v1_ListStreamsRequest, callback: grpc.requestCallback<_loam_remote_v1_StreamPage__Output>): grpc.ClientUnaryCall;
  listStreams(argument: _loam_remote_v1_ListStreamsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_StreamPage__Output>): grpc.ClientUnaryCall;
  listStreams(argument: _loam_remote_v1_ListStreamsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_StreamPage__Output>): grpc.ClientUnaryCall;
  listStreams(argument: _loam_remote_v1_ListStreamsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_StreamPage__Output>): grpc.ClientUnaryCall;
  listStreams(argument: _loam_remote_v1_ListStreamsRequest, callback: grpc.requestCallback<_loam_remote_v1_StreamPage__Output>): grpc.ClientUnaryCall;
  
  ListTags(argument: _loam_remote_v1_ListTagsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_TagPage__Output>): grpc.ClientUnaryCall;
  ListTags(argument: _loam_remote_v1_ListTagsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_TagPage__Output>): grpc.ClientUnaryCall;
  ListTags(argument: _loam_remote_v1_ListTagsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_TagPage__Output>): grpc.ClientUnaryCall;
  ListTags(argument: _loam_remote_v1_ListTagsRequest, callback: grpc.requestCallback<_loam_remote_v1_TagPage__Output>): grpc.ClientUnaryCall;
  listTags(argument: _loam_remote_v1_ListTagsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_TagPage__Output>): grpc.ClientUnaryCall;
  listTags(argument: _loam_remote_v1_ListTagsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_TagPage__Output>): grpc.ClientUnaryCall;
  listTags(argument: _loam_remote_v1_ListTagsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_TagPage__Output>): grpc.ClientUnaryCall;
  listTags(argument: _loam_remote_v1_ListTagsRequest, callback: grpc.requestCallback<_loam_remote_v1_TagPage__Output>): grpc.ClientUnaryCall;
  
  NamespaceByName(argument: _loam_remote_v1_NamespaceByNameRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Namespace__Output>): grpc.ClientUnaryCall;
  NamespaceByName(argument: _loam_remote_v1_NamespaceByNameRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Namespace__Output>): grpc.ClientUnaryCall;
  NamespaceByName(argument: _loam_remote_v1_NamespaceByNameRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Namespace__Output>): grpc.ClientUnaryCall;
  NamespaceByName(argument: _loam_remote_v1_NamespaceByNameRequest, callback: grpc.requestCallback<_loam_remote_v1_Namespace__Output>): grpc.ClientUnaryCall;
  namespaceByName(argument: _loam_remote_v1_NamespaceByNameRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Namespace__Output>): grpc.ClientUnaryCall;
  namespaceByName(argument: _loam_remote_v1_NamespaceByNameRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Namespace__Output>): grpc.ClientUnaryCall;
  namespaceByName(argument: _loam_remote_v1_NamespaceByNameRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Namespace__Output>): grpc.ClientUnaryCall;
  namespaceByName(argument: _loam_remote_v1_NamespaceByNameRequest, callback: grpc.requestCallback<_loam_remote_v1_Namespace__Output>): grpc.ClientUnaryCall;
  
  PartitionIndex(argument: _loam_remote_v1_PartitionIndexRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_PartitionIndex__Output>): grpc.ClientUnaryCall;
  PartitionIndex(argument: _loam_remote_v1_PartitionIndexRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_PartitionIndex__Output>): grpc.ClientUnaryCall;
  PartitionIndex(argument: _loam_remote_v1_PartitionIndexRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_PartitionIndex__Output>): grpc.ClientUnaryCall;
  PartitionIndex(argument: _loam_remote_v1_PartitionIndexRequest, callback: grpc.requestCallback<_loam_remote_v1_PartitionIndex__Output>): grpc.ClientUnaryCall;
  partitionIndex(argument: _loam_remote_v1_PartitionIndexRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_PartitionIndex__Output>): grpc.ClientUnaryCall;
  partitionIndex(argument: _loam_remote_v1_PartitionIndexRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_PartitionIndex__Output>): grpc.ClientUnaryCall;
  partitionIndex(argument: _loam_remote_v1_PartitionIndexRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_PartitionIndex__Output>): grpc.ClientUnaryCall;
  partitionIndex(argument: _loam_remote_v1_PartitionIndexRequest, callback: grpc.requestCallback<_loam_remote_v1_PartitionIndex__Output>): grpc.ClientUnaryCall;
  
  PointerVersion(argument: _loam_remote_v1_PointerVersionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_OptionalPointerVersion__Output>): grpc.ClientUnaryCall;
  PointerVersion(argument: _loam_remote_v1_PointerVersionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_OptionalPointerVersion__Output>): grpc.ClientUnaryCall;
  PointerVersion(argument: _loam_remote_v1_PointerVersionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_OptionalPointerVersion__Output>): grpc.ClientUnaryCall;
  PointerVersion(argument: _loam_remote_v1_PointerVersionRequest, callback: grpc.requestCallback<_loam_remote_v1_OptionalPointerVersion__Output>): grpc.ClientUnaryCall;
  pointerVersion(argument: _loam_remote_v1_PointerVersionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_OptionalPointerVersion__Output>): grpc.ClientUnaryCall;
  pointerVersion(argument: _loam_remote_v1_PointerVersionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_OptionalPointerVersion__Output>): grpc.ClientUnaryCall;
  pointerVersion(argument: _loam_remote_v1_PointerVersionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_OptionalPointerVersion__Output>): grpc.ClientUnaryCall;
  pointerVersion(argument: _loam_remote_v1_PointerVersionRequest, callback: grpc.requestCallback<_loam_remote_v1_OptionalPointerVersion__Output>): grpc.ClientUnaryCall;
  
  ReleaseClaim(argument: _loam_remote_v1_ReleaseClaimRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  ReleaseClaim(argument: _loam_remote_v1_ReleaseClaimRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  ReleaseClaim(argument: _loam_remote_v1_ReleaseClaimRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  ReleaseClaim(argument: _loam_remote_v1_ReleaseClaimRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  releaseClaim(argument: _loam_remote_v1_ReleaseClaimRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  releaseClaim(argument: _loam_remote_v1_ReleaseClaimRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  releaseClaim(argument: _loam_remote_v1_ReleaseClaimRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  releaseClaim(argument: _loam_remote_v1_ReleaseClaimRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  ReleaseLease(argument: _loam_remote_v1_ReleaseLeaseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  ReleaseLease(argument: _loam_remote_v1_ReleaseLeaseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  ReleaseLease(argument: _loam_remote_v1_ReleaseLeaseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  ReleaseLease(argument: _loam_remote_v1_ReleaseLeaseRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  releaseLease(argument: _loam_remote_v1_ReleaseLeaseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  releaseLease(argument: _loam_remote_v1_ReleaseLeaseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  releaseLease(argument: _loam_remote_v1_ReleaseLeaseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  releaseLease(argument: _loam_remote_v1_ReleaseLeaseRequest, callback: grpc.requestCallback<_loam_remote_v1_Empty__Output>): grpc.ClientUnaryCall;
  
  RenewLease(argument: _loam_remote_v1_RenewLeaseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Lease__Output>): grpc.ClientUnaryCall;
  RenewLease(argument: _loam_remote_v1_RenewLeaseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Lease__Output>): grpc.ClientUnaryCall;
  RenewLease(argument: _loam_remote_v1_RenewLeaseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Lease__Output>): grpc.ClientUnaryCall;
  RenewLease(argument: _loam_remote_v1_RenewLeaseRequest, callback: grpc.requestCallback<_loam_remote_v1_Lease__Output>): grpc.ClientUnaryCall;
  renewLease(argument: _loam_remote_v1_RenewLeaseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Lease__Output>): grpc.ClientUnaryCall;
  renewLease(argument: _loam_remote_v1_RenewLeaseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Lease__Output>): grpc.ClientUnaryCall;
  renewLease(argument: _loam_remote_v1_RenewLeaseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Lease__Output>): grpc.ClientUnaryCall;
  renewLease(argument: _loam_remote_v1_RenewLeaseRequest, callback: grpc.requestCallback<_loam_remote_v1_Lease__Output>): grpc.ClientUnaryCall;
  
  RetiredWalObjects(argument: _loam_remote_v1_RetiredWalObjectsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_RetiredWalObjectPage__Output>): grpc.ClientUnaryCall;
  RetiredWalObjects(argument: _loam_remote_v1_RetiredWalObjectsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_RetiredWalObjectPage__Output>): grpc.ClientUnaryCall;
  RetiredWalObjects(argument: _loam_remote_v1_RetiredWalObjectsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_RetiredWalObjectPage__Output>): grpc.ClientUnaryCall;
  RetiredWalObjects(argument: _loam_remote_v1_RetiredWalObjectsRequest, callback: grpc.requestCallback<_loam_remote_v1_RetiredWalObjectPage__Output>): grpc.ClientUnaryCall;
  retiredWalObjects(argument: _loam_remote_v1_RetiredWalObjectsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_RetiredWalObjectPage__Output>): grpc.ClientUnaryCall;
  retiredWalObjects(argument: _loam_remote_v1_RetiredWalObjectsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_RetiredWalObjectPage__Output>): grpc.ClientUnaryCall;
  retiredWalObjects(argument: _loam_remote_v1_RetiredWalObjectsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_RetiredWalObjectPage__Output>): grpc.ClientUnaryCall;
  retiredWalObjects(argument: _loam_remote_v1_RetiredWalObjectsRequest, callback: grpc.requestCallback<_loam_remote_v1_RetiredWalObjectPage__Output>): grpc.ClientUnaryCall;
  
  RewriteTag(argument: _loam_remote_v1_RewriteTagRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Tag__Output>): grpc.ClientUnaryCall;
  RewriteTag(argument: _loam_remote_v1_RewriteTagRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Tag__Output>): grpc.ClientUnaryCall;
  RewriteTag(argument: _loam_remote_v1_RewriteTagRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Tag__Output>): grpc.ClientUnaryCall;
  RewriteTag(argument: _loam_remote_v1_RewriteTagRequest, callback: grpc.requestCallback<_loam_remote_v1_Tag__Output>): grpc.ClientUnaryCall;
  rewriteTag(argument: _loam_remote_v1_RewriteTagRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Tag__Output>): grpc.ClientUnaryCall;
  rewriteTag(argument: _loam_remote_v1_RewriteTagRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Tag__Output>): grpc.ClientUnaryCall;
  rewriteTag(argument: _loam_remote_v1_RewriteTagRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Tag__Output>): grpc.ClientUnaryCall;
  rewriteTag(argument: _loam_remote_v1_RewriteTagRequest, callback: grpc.requestCallback<_loam_remote_v1_Tag__Output>): grpc.ClientUnaryCall;
  
  SegmentReferenced(argument: _loam_remote_v1_SegmentReferencedRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_BoolValue__Output>): grpc.ClientUnaryCall;
  SegmentReferenced(argument: _loam_remote_v1_SegmentReferencedRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_BoolValue__Output>): grpc.ClientUnaryCall;
  SegmentReferenced(argument: _loam_remote_v1_SegmentReferencedRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_BoolValue__Output>): grpc.ClientUnaryCall;
  SegmentReferenced(argument: _loam_remote_v1_SegmentReferencedRequest, callback: grpc.requestCallback<_loam_remote_v1_BoolValue__Output>): grpc.ClientUnaryCall;
  segmentReferenced(argument: _loam_remote_v1_SegmentReferencedRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_BoolValue__Output>): grpc.ClientUnaryCall;
  segmentReferenced(argument: _loam_remote_v1_SegmentReferencedRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_BoolValue__Output>): grpc.ClientUnaryCall;
  segmentReferenced(argument: _loam_remote_v1_SegmentReferencedRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_BoolValue__Output>): grpc.ClientUnaryCall;
  segmentReferenced(argument: _loam_remote_v1_SegmentReferencedRequest, callback: grpc.requestCallback<_loam_remote_v1_BoolValue__Output>): grpc.ClientUnaryCall;
  
  SetRetention(argument: _loam_remote_v1_SetRetentionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Stream__Output>): grpc.ClientUnaryCall;
  SetRetention(argument: _loam_remote_v1_SetRetentionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Stream__Output>): grpc.ClientUnaryCall;
  SetRetention(argument: _loam_remote_v1_SetRetentionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Stream__Output>): grpc.ClientUnaryCall;
  SetRetention(argument: _loam_remote_v1_SetRetentionRequest, callback: grpc.requestCallback<_loam_remote_v1_Stream__Output>): grpc.ClientUnaryCall;
  setRetention(argument: _loam_remote_v1_SetRetentionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Stream__Output>): grpc.ClientUnaryCall;
  setRetention(argument: _loam_remote_v1_SetRetentionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Stream__Output>): grpc.ClientUnaryCall;
  setRetention(argument: _loam_remote_v1_SetRetentionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Stream__Output>): grpc.ClientUnaryCall;
  setRetention(argument: _loam_remote_v1_SetRetentionRequest, callback: grpc.requestCallback<_loam_remote_v1_Stream__Output>): grpc.ClientUnaryCall;
  
  SettleHead(argument: _loam_remote_v1_SettleHeadRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_BoolValue__Output>): grpc.ClientUnaryCall;
  SettleHead(argument: _loam_remote_v1_SettleHeadRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_BoolValue__Output>): grpc.ClientUnaryCall;
  SettleHead(argument: _loam_remote_v1_SettleHeadRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_BoolValue__Output>): grpc.ClientUnaryCall;
  SettleHead(argument: _loam_remote_v1_SettleHeadRequest, callback: grpc.requestCallback<_loam_remote_v1_BoolValue__Output>): grpc.ClientUnaryCall;
  settleHead(argument: _loam_remote_v1_SettleHeadRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_BoolValue__Output>): grpc.ClientUnaryCall;
  settleHead(argument: _loam_remote_v1_SettleHeadRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_BoolValue__Output>): grpc.ClientUnaryCall;
  settleHead(argument: _loam_remote_v1_SettleHeadRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_BoolValue__Output>): grpc.ClientUnaryCall;
  settleHead(argument: _loam_remote_v1_SettleHeadRequest, callback: grpc.requestCallback<_loam_remote_v1_BoolValue__Output>): grpc.ClientUnaryCall;
  
  StreamState(argument: _loam_remote_v1_StreamStateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_StreamState__Output>): grpc.ClientUnaryCall;
  StreamState(argument: _loam_remote_v1_StreamStateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_StreamState__Output>): grpc.ClientUnaryCall;
  StreamState(argument: _loam_remote_v1_StreamStateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_StreamState__Output>): grpc.ClientUnaryCall;
  StreamState(argument: _loam_remote_v1_StreamStateRequest, callback: grpc.requestCallback<_loam_remote_v1_StreamState__Output>): grpc.ClientUnaryCall;
  streamState(argument: _loam_remote_v1_StreamStateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_StreamState__Output>): grpc.ClientUnaryCall;
  streamState(argument: _loam_remote_v1_StreamStateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_StreamState__Output>): grpc.ClientUnaryCall;
  streamState(argument: _loam_remote_v1_StreamStateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_StreamState__Output>): grpc.ClientUnaryCall;
  streamState(argument: _loam_remote_v1_StreamStateRequest, callback: grpc.requestCallback<_loam_remote_v1_StreamState__Output>): grpc.ClientUnaryCall;
  
  SwapSegment(argument: _loam_remote_v1_SwapSegmentRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_SwapSegmentResult__Output>): grpc.ClientUnaryCall;
  SwapSegment(argument: _loam_remote_v1_SwapSegmentRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_SwapSegmentResult__Output>): grpc.ClientUnaryCall;
  SwapSegment(argument: _loam_remote_v1_SwapSegmentRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_SwapSegmentResult__Output>): grpc.ClientUnaryCall;
  SwapSegment(argument: _loam_remote_v1_SwapSegmentRequest, callback: grpc.requestCallback<_loam_remote_v1_SwapSegmentResult__Output>): grpc.ClientUnaryCall;
  swapSegment(argument: _loam_remote_v1_SwapSegmentRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_SwapSegmentResult__Output>): grpc.ClientUnaryCall;
  swapSegment(argument: _loam_remote_v1_SwapSegmentRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_SwapSegmentResult__Output>): grpc.ClientUnaryCall;
  swapSegment(argument: _loam_remote_v1_SwapSegmentRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_SwapSegmentResult__Output>): grpc.ClientUnaryCall;
  swapSegment(argument: _loam_remote_v1_SwapSegmentRequest, callback: grpc.requestCallback<_loam_remote_v1_SwapSegmentResult__Output>): grpc.ClientUnaryCall;
  
  TrimPartition(argument: _loam_remote_v1_TrimPartitionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_PartitionHead__Output>): grpc.ClientUnaryCall;
  TrimPartition(argument: _loam_remote_v1_TrimPartitionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_PartitionHead__Output>): grpc.ClientUnaryCall;
  TrimPartition(argument: _loam_remote_v1_TrimPartitionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_PartitionHead__Output>): grpc.ClientUnaryCall;
  TrimPartition(argument: _loam_remote_v1_TrimPartitionRequest, callback: grpc.requestCallback<_loam_remote_v1_PartitionHead__Output>): grpc.ClientUnaryCall;
  trimPartition(argument: _loam_remote_v1_TrimPartitionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_PartitionHead__Output>): grpc.ClientUnaryCall;
  trimPartition(argument: _loam_remote_v1_TrimPartitionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_PartitionHead__Output>): grpc.ClientUnaryCall;
  trimPartition(argument: _loam_remote_v1_TrimPartitionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_PartitionHead__Output>): grpc.ClientUnaryCall;
  trimPartition(argument: _loam_remote_v1_TrimPartitionRequest, callback: grpc.requestCallback<_loam_remote_v1_PartitionHead__Output>): grpc.ClientUnaryCall;
  
  UpdateAliases(argument: _loam_remote_v1_UpdateAliasesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Aliases__Output>): grpc.ClientUnaryCall;
  UpdateAliases(argument: _loam_remote_v1_UpdateAliasesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Aliases__Output>): grpc.ClientUnaryCall;
  UpdateAliases(argument: _loam_remote_v1_UpdateAliasesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Aliases__Output>): grpc.ClientUnaryCall;
  UpdateAliases(argument: _loam_remote_v1_UpdateAliasesRequest, callback: grpc.requestCallback<_loam_remote_v1_Aliases__Output>): grpc.ClientUnaryCall;
  updateAliases(argument: _loam_remote_v1_UpdateAliasesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Aliases__Output>): grpc.ClientUnaryCall;
  updateAliases(argument: _loam_remote_v1_UpdateAliasesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Aliases__Output>): grpc.ClientUnaryCall;
  updateAliases(argument: _loam_remote_v1_UpdateAliasesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Aliases__Output>): grpc.ClientUnaryCall;
  updateAliases(argument: _loam_remote_v1_UpdateAliasesRequest, callback: grpc.requestCallback<_loam_remote_v1_Aliases__Output>): grpc.ClientUnaryCall;
  
  UpdateCollectionSchema(argument: _loam_remote_v1_UpdateCollectionSchemaRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  UpdateCollectionSchema(argument: _loam_remote_v1_UpdateCollectionSchemaRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  UpdateCollectionSchema(argument: _loam_remote_v1_UpdateCollectionSchemaRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  UpdateCollectionSchema(argument: _loam_remote_v1_UpdateCollectionSchemaRequest, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  updateCollectionSchema(argument: _loam_remote_v1_UpdateCollectionSchemaRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  updateCollectionSchema(argument: _loam_remote_v1_UpdateCollectionSchemaRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  updateCollectionSchema(argument: _loam_remote_v1_UpdateCollectionSchemaRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  updateCollectionSchema(argument: _loam_remote_v1_UpdateCollectionSchemaRequest, callback: grpc.requestCallback<_loam_remote_v1_Collection__Output>): grpc.ClientUnaryCall;
  
  WatchChanges(argument: _loam_remote_v1_WatchChangesRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_loam_remote_v1_ChangeEvent__Output>;
  WatchChanges(argument: _loam_remote_v1_WatchChangesRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_loam_remote_v1_ChangeEvent__Output>;
  watchChanges(argument: _loam_remote_v1_WatchChangesRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_loam_remote_v1_ChangeEvent__Output>;
  watchChanges(argument: _loam_remote_v1_WatchChangesRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_loam_remote_v1_ChangeEvent__Output>;
  
}

export interface MetaStoreHandlers extends grpc.UntypedServiceImplementation {
  AcquireLease: grpc.handleUnaryCall<_loam_remote_v1_AcquireLeaseRequest__Output, _loam_remote_v1_Lease>;
  
  Capabilities: grpc.handleUnaryCall<_loam_remote_v1_Empty__Output, _loam_remote_v1_Capabilities>;
  
  CasPointer: grpc.handleUnaryCall<_loam_remote_v1_CasPointerRequest__Output, _loam_remote_v1_Pointer>;
  
  CatalogVersion: grpc.handleUnaryCall<_loam_remote_v1_Empty__Output, _loam_remote_v1_VersionValue>;
  
  ChangesSince: grpc.handleUnaryCall<_loam_remote_v1_ChangesSinceRequest__Output, _loam_remote_v1_ChangesPage>;
  
  ClaimObject: grpc.handleUnaryCall<_loam_remote_v1_ClaimObjectRequest__Output, _loam_remote_v1_ClaimResult>;
  
  CollectionByName: grpc.handleUnaryCall<_loam_remote_v1_CollectionByNameRequest__Output, _loam_remote_v1_Collection>;
  
  CollectionHead: grpc.handleUnaryCall<_loam_remote_v1_CollectionHeadRequest__Output, _loam_remote_v1_CollectionHead>;
  
  CommitWal: grpc.handleUnaryCall<_loam_remote_v1_CommitWalRequest__Output, _loam_remote_v1_WalCommitResult>;
  
  CommitWalBatch: grpc.handleUnaryCall<_loam_remote_v1_CommitWalBatchRequest__Output, _loam_remote_v1_CommitWalBatchResult>;
  
  CommitWalStream: grpc.handleBidiStreamingCall<_loam_remote_v1_CommitWalStreamRequest__Output, _loam_remote_v1_CommitWalStreamResult>;
  
  CreateCollection: grpc.handleUnaryCall<_loam_remote_v1_CreateCollectionRequest__Output, _loam_remote_v1_Collection>;
  
  CreateNamespace: grpc.handleUnaryCall<_loam_remote_v1_CreateNamespaceRequest__Output, _loam_remote_v1_Namespace>;
  
  CreateStream: grpc.handleUnaryCall<_loam_remote_v1_CreateStreamRequest__Output, _loam_remote_v1_Stream>;
  
  CreateTag: grpc.handleUnaryCall<_loam_remote_v1_CreateTagRequest__Output, _loam_remote_v1_Tag>;
  
  DropCollection: grpc.handleUnaryCall<_loam_remote_v1_DropCollectionRequest__Output, _loam_remote_v1_Empty>;
  
  DropNamespace: grpc.handleUnaryCall<_loam_remote_v1_DropNamespaceRequest__Output, _loam_remote_v1_Empty>;
  
  DropStream: grpc.handleUnaryCall<_loam_remote_v1_DropStreamRequest__Output, _loam_remote_v1_Empty>;
  
  DropTag: grpc.handleUnaryCall<_loam_remote_v1_DropTagRequest__Output, _loam_remote_v1_Empty>;
  
  DueHeads: grpc.handleUnaryCall<_loam_remote_v1_DueHeadsRequest__Output, _loam_remote_v1_DueHeadPage>;
  
  GetAliases: grpc.handleUnaryCall<_loam_remote_v1_GetAliasesRequest__Output, _loam_remote_v1_Aliases>;
  
  GetCollection: grpc.handleUnaryCall<_loam_remote_v1_GetCollectionRequest__Output, _loam_remote_v1_Collection>;
  
  GetLease: grpc.handleUnaryCall<_loam_remote_v1_GetLeaseRequest__Output, _loam_remote_v1_OptionalLease>;
  
  GetNamespace: grpc.handleUnaryCall<_loam_remote_v1_GetNamespaceRequest__Output, _loam_remote_v1_Namespace>;
  
  GetObjectRef: grpc.handleUnaryCall<_loam_remote_v1_ObjectRefRequest__Output, _loam_remote_v1_OptionalObjectRef>;
  
  GetPointer: grpc.handleUnaryCall<_loam_remote_v1_GetPointerRequest__Output, _loam_remote_v1_OptionalPointer>;
  
  GetStream: grpc.handleUnaryCall<_loam_remote_v1_GetStreamRequest__Output, _loam_remote_v1_Stream>;
  
  Janitor: grpc.handleUnaryCall<_loam_remote_v1_JanitorRequest__Output, _loam_remote_v1_JanitorResult>;
  
  ListCollections: grpc.handleUnaryCall<_loam_remote_v1_ListCollectionsRequest__Output, _loam_remote_v1_CollectionPage>;
  
  ListNamespaces: grpc.handleUnaryCall<_loam_remote_v1_ListNamespacesRequest__Output, _loam_remote_v1_NamespacePage>;
  
  ListStreams: grpc.handleUnaryCall<_loam_remote_v1_ListStreamsRequest__Output, _loam_remote_v1_StreamPage>;
  
  ListTags: grpc.handleUnaryCall<_loam_remote_v1_ListTagsRequest__Output, _loam_remote_v1_TagPage>;
  
  NamespaceByName: grpc.handleUnaryCall<_loam_remote_v1_NamespaceByNameRequest__Output, _loam_remote_v1_Namespace>;
  
  PartitionIndex: grpc.handleUnaryCall<_loam_remote_v1_PartitionIndexRequest__Output, _loam_remote_v1_PartitionIndex>;
  
  PointerVersion: grpc.handleUnaryCall<_loam_remote_v1_PointerVersionRequest__Output, _loam_remote_v1_OptionalPointerVersion>;
  
  ReleaseClaim: grpc.handleUnaryCall<_loam_remote_v1_ReleaseClaimRequest__Output, _loam_remote_v1_Empty>;
  
  ReleaseLease: grpc.handleUnaryCall<_loam_remote_v1_ReleaseLeaseRequest__Output, _loam_remote_v1_Empty>;
  
  RenewLease: grpc.handleUnaryCall<_loam_remote_v1_RenewLeaseRequest__Output, _loam_remote_v1_Lease>;
  
  RetiredWalObjects: grpc.handleUnaryCall<_loam_remote_v1_RetiredWalObjectsRequest__Output, _loam_remote_v1_RetiredWalObjectPage>;
  
  RewriteTag: grpc.handleUnaryCall<_loam_remote_v1_RewriteTagRequest__Output, _loam_remote_v1_Tag>;
  
  SegmentReferenced: grpc.handleUnaryCall<_loam_remote_v1_SegmentReferencedRequest__Output, _loam_remote_v1_BoolValue>;
  
  SetRetention: grpc.handleUnaryCall<_loam_remote_v1_SetRetentionRequest__Output, _loam_remote_v1_Stream>;
  
  SettleHead: grpc.handleUnaryCall<_loam_remote_v1_SettleHeadRequest__Output, _loam_remote_v1_BoolValue>;
  
  StreamState: grpc.handleUnaryCall<_loam_remote_v1_StreamStateRequest__Output, _loam_remote_v1_StreamState>;
  
  SwapSegment: grpc.handleUnaryCall<_loam_remote_v1_SwapSegmentRequest__Output, _loam_remote_v1_SwapSegmentResult>;
  
  TrimPartition: grpc.handleUnaryCall<_loam_remote_v1_TrimPartitionRequest__Output, _loam_remote_v1_PartitionHead>;
  
  UpdateAliases: grpc.handleUnaryCall<_loam_remote_v1_UpdateAliasesRequest__Output, _loam_remote_v1_Aliases>;
  
  UpdateCollectionSchema: grpc.handleUnaryCall<_loam_remote_v1_UpdateCollectionSchemaRequest__Output, _loam_remote_v1_Collection>;
  
  WatchChanges: grpc.handleServerStreamingCall<_loam_remote_v1_WatchChangesRequest__Output, _loam_remote_v1_ChangeEvent>;
  
}

export interface MetaStoreDefinition extends grpc.ServiceDefinition {
  AcquireLease: MethodDefinition<_loam_remote_v1_AcquireLeaseRequest, _loam_remote_v1_Lease, _loam_remote_v1_AcquireLeaseRequest__Output, _loam_remote_v1_Lease__Output>
  Capabilities: MethodDefinition<_loam_remote_v1_Empty, _loam_remote_v1_Capabilities, _loam_remote_v1_Empty__Output, _loam_remote_v1_Capabilities__Output>
  CasPointer: MethodDefinition<_loam_remote_v1_CasPointerRequest, _loam_remote_v1_Pointer, _loam_remote_v1_CasPointerRequest__Output, _loam_remote_v1_Pointer__Output>
  CatalogVersion: MethodDefinition<_loam_remote_v1_Empty, _loam_remote_v1_VersionValue, _loam_remote_v1_Empty__Output, _loam_remote_v1_VersionValue__Output>
  ChangesSince: MethodDefinition<_loam_remote_v1_ChangesSinceRequest, _loam_remote_v1_ChangesPage, _loam_remote_v1_ChangesSinceRequest__Output, _loam_remote_v1_ChangesPage__Output>
  ClaimObject: MethodDefinition<_loam_remote_v1_ClaimObjectRequest, _loam_remote_v1_ClaimResult, _loam_remote_v1_ClaimObjectRequest__Output, _loam_remote_v1_ClaimResult__Output>
  CollectionByName: MethodDefinition<_loam_remote_v1_CollectionByNameRequest, _loam_remote_v1_Collection, _loam_remote_v1_CollectionByNameRequest__Output, _loam_remote_v1_Collection__Output>
  CollectionHead: MethodDefinition<_loam_remote_v1_CollectionHeadRequest, _loam_remote_v1_CollectionHead, _loam_remote_v1_CollectionHeadRequest__Output, _loam_remote_v1_CollectionHead__Output>
  CommitWal: MethodDefinition<_loam_remote_v1_CommitWalRequest, _loam_remote_v1_WalCommitResult, _loam_remote_v1_CommitWalRequest__Output, _loam_remote_v1_WalCommitResult__Output>
  CommitWalBatch: MethodDefinition<_loam_remote_v1_CommitWalBatchRequest, _loam_remote_v1_CommitWalBatchResult, _loam_remote_v1_CommitWalBatchRequest__Output, _loam_remote_v1_CommitWalBatchResult__Output>
  CommitWalStream: MethodDefinition<_loam_remote_v1_CommitWalStreamRequest, _loam_remote_v1_CommitWalStreamResult, _loam_remote_v1_CommitWalStreamRequest__Output, _loam_remote_v1_CommitWalStreamResult__Output>
  CreateCollection: MethodDefinition<_loam_remote_v1_CreateCollectionRequest, _loam_remote_v1_Collection, _loam_remote_v1_CreateCollectionRequest__Output, _loam_remote_v1_Collection__Output>
  CreateNamespace: MethodDefinition<_loam_remote_v1_CreateNamespaceRequest, _loam_remote_v1_Namespace, _loam_remote_v1_CreateNamespaceRequest__Output, _loam_remote_v1_Namespace__Output>
  CreateStream: MethodDefinition<_loam_remote_v1_CreateStreamRequest, _loam_remote_v1_Stream, _loam_remote_v1_CreateStreamRequest__Output, _loam_remote_v1_Stream__Output>
  CreateTag: MethodDefinition<_loam_remote_v1_CreateTagRequest, _loam_remote_v1_Tag, _loam_remote_v1_CreateTagRequest__Output, _loam_remote_v1_Tag__Output>
  DropCollection: MethodDefinition<_loam_remote_v1_DropCollectionRequest, _loam_remote_v1_Empty, _loam_remote_v1_DropCollectionRequest__Output, _loam_remote_v1_Empty__Output>
  DropNamespace: MethodDefinition<_loam_remote_v1_DropNamespaceRequest, _loam_remote_v1_Empty, _loam_remote_v1_DropNamespaceRequest__Output, _loam_remote_v1_Empty__Output>
  DropStream: MethodDefinition<_loam_remote_v1_DropStreamRequest, _loam_remote_v1_Empty, _loam_remote_v1_DropStreamRequest__Output, _loam_remote_v1_Empty__Output>
  DropTag: MethodDefinition<_loam_remote_v1_DropTagRequest, _loam_remote_v1_Empty, _loam_remote_v1_DropTagRequest__Output, _loam_remote_v1_Empty__Output>
  DueHeads: MethodDefinition<_loam_remote_v1_DueHeadsRequest, _loam_remote_v1_DueHeadPage, _loam_remote_v1_DueHeadsRequest__Output, _loam_remote_v1_DueHeadPage__Output>
  GetAliases: MethodDefinition<_loam_remote_v1_GetAliasesRequest, _loam_remote_v1_Aliases, _loam_remote_v1_GetAliasesRequest__Output, _loam_remote_v1_Aliases__Output>
  GetCollection: MethodDefinition<_loam_remote_v1_GetCollectionRequest, _loam_remote_v1_Collection, _loam_remote_v1_GetCollectionRequest__Output, _loam_remote_v1_Collection__Output>
  GetLease: MethodDefinition<_loam_remote_v1_GetLeaseRequest, _loam_remote_v1_OptionalLease, _loam_remote_v1_GetLeaseRequest__Output, _loam_remote_v1_OptionalLease__Output>
  GetNamespace: MethodDefinition<_loam_remote_v1_GetNamespaceRequest, _loam_remote_v1_Namespace, _loam_remote_v1_GetNamespaceRequest__Output, _loam_remote_v1_Namespace__Output>
  GetObjectRef: MethodDefinition<_loam_remote_v1_ObjectRefRequest, _loam_remote_v1_OptionalObjectRef, _loam_remote_v1_ObjectRefRequest__Output, _loam_remote_v1_OptionalObjectRef__Output>
  GetPointer: MethodDefinition<_loam_remote_v1_GetPointerRequest, _loam_remote_v1_OptionalPointer, _loam_remote_v1_GetPointerRequest__Output, _loam_remote_v1_OptionalPointer__Output>
  GetStream: MethodDefinition<_loam_remote_v1_GetStreamRequest, _loam_remote_v1_Stream, _loam_remote_v1_GetStreamRequest__Output, _loam_remote_v1_Stream__Output>
  Janitor: MethodDefinition<_loam_remote_v1_JanitorRequest, _loam_remote_v1_JanitorResult, _loam_remote_v1_JanitorRequest__Output, _loam_remote_v1_JanitorResult__Output>
  ListCollections: MethodDefinition<_loam_remote_v1_ListCollectionsRequest, _loam_remote_v1_CollectionPage, _loam_remote_v1_ListCollectionsRequest__Output, _loam_remote_v1_CollectionPage__Output>
  ListNamespaces: MethodDefinition<_loam_remote_v1_ListNamespacesRequest, _loam_remote_v1_NamespacePage, _loam_remote_v1_ListNamespacesRequest__Output, _loam_remote_v1_NamespacePage__Output>
  ListStreams: MethodDefinition<_loam_remote_v1_ListStreamsRequest, _loam_remote_v1_StreamPage, _loam_remote_v1_ListStreamsRequest__Output, _loam_remote_v1_StreamPage__Output>
  ListTags: MethodDefinition<_loam_remote_v1_ListTagsRequest, _loam_remote_v1_TagPage, _loam_remote_v1_ListTagsRequest__Output, _loam_remote_v1_TagPage__Output>
  NamespaceByName: MethodDefinition<_loam_remote_v1_NamespaceByNameRequest, _loam_remote_v1_Namespace, _loam_remote_v1_NamespaceByNameRequest__Output, _loam_remote_v1_Namespace__Output>
  PartitionIndex: MethodDefinition<_loam_remote_v1_PartitionIndexRequest, _loam_remote_v1_PartitionIndex, _loam_remote_v1_PartitionIndexRequest__Output, _loam_remote_v1_PartitionIndex__Output>
  PointerVersion: MethodDefinition<_loam_remote_v1_PointerVersionRequest, _loam_remote_v1_OptionalPointerVersion, _loam_remote_v1_PointerVersionRequest__Output, _loam_remote_v1_OptionalPointerVersion__Output>
  ReleaseClaim: MethodDefinition<_loam_remote_v1_ReleaseClaimRequest, _loam_remote_v1_Empty, _loam_remote_v1_ReleaseClaimRequest__Output, _loam_remote_v1_Empty__Output>
  ReleaseLease: MethodDefinition<_loam_remote_v1_ReleaseLeaseRequest, _loam_remote_v1_Empty, _loam_remote_v1_ReleaseLeaseRequest__Output, _loam_remote_v1_Empty__Output>
  RenewLease: MethodDefinition<_loam_remote_v1_RenewLeaseRequest, _loam_remote_v1_Lease, _loam_remote_v1_RenewLeaseRequest__Output, _loam_remote_v1_Lease__Output>
  RetiredWalObjects: MethodDefinition<_loam_remote_v1_RetiredWalObjectsRequest, _loam_remote_v1_RetiredWalObjectPage, _loam_remote_v1_RetiredWalObjectsRequest__Output, _loam_remote_v1_RetiredWalObjectPage__Output>
  RewriteTag: MethodDefinition<_loam_remote_v1_RewriteTagRequest, _loam_remote_v1_Tag, _loam_remote_v1_RewriteTagRequest__Output, _loam_remote_v1_Tag__Output>
  SegmentReferenced: MethodDefinition<_loam_remote_v1_SegmentReferencedRequest, _loam_remote_v1_BoolValue, _loam_remote_v1_SegmentReferencedRequest__Output, _loam_remote_v1_BoolValue__Output>
  SetRetention: MethodDefinition<_loam_remote_v1_SetRetentionRequest, _loam_remote_v1_Stream, _loam_remote_v1_SetRetentionRequest__Output, _loam_remote_v1_Stream__Output>
  SettleHead: MethodDefinition<_loam_remote_v1_SettleHeadRequest, _loam_remote_v1_BoolValue, _loam_remote_v1_SettleHeadRequest__Output, _loam_remote_v1_BoolValue__Output>
  StreamState: MethodDefinition<_loam_remote_v1_StreamStateRequest, _loam_remote_v1_StreamState, _loam_remote_v1_StreamStateRequest__Output, _loam_remote_v1_StreamState__Output>
  SwapSegment: MethodDefinition<_loam_remote_v1_SwapSegmentRequest, _loam_remote_v1_SwapSegmentResult, _loam_remote_v1_SwapSegmentRequest__Output, _loam_remote_v1_SwapSegmentResult__Output>
  TrimPartition: MethodDefinition<_loam_remote_v1_TrimPartitionRequest, _loam_remote_v1_PartitionHead, _loam_remote_v1_TrimPartitionRequest__Output, _loam_remote_v1_PartitionHead__Output>
  UpdateAliases: MethodDefinition<_loam_remote_v1_UpdateAliasesRequest, _loam_remote_v1_Aliases, _loam_remote_v1_UpdateAliasesRequest__Output, _loam_remote_v1_Aliases__Output>
  UpdateCollectionSchema: MethodDefinition<_loam_remote_v1_UpdateCollectionSchemaRequest, _loam_remote_v1_Collection, _loam_remote_v1_UpdateCollectionSchemaRequest__Output, _loam_remote_v1_Collection__Output>
  WatchChanges: MethodDefinition<_loam_remote_v1_WatchChangesRequest, _loam_remote_v1_ChangeEvent, _loam_remote_v1_WatchChangesRequest__Output, _loam_remote_v1_ChangeEvent__Output>
}
