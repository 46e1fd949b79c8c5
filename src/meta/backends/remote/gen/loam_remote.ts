import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { AckOutboxRequest as _loam_remote_v1_AckOutboxRequest, AckOutboxRequest__Output as _loam_remote_v1_AckOutboxRequest__Output } from './loam/remote/v1/AckOutboxRequest.js';
import type { AcquireLeaseRequest as _loam_remote_v1_AcquireLeaseRequest, AcquireLeaseRequest__Output as _loam_remote_v1_AcquireLeaseRequest__Output } from './loam/remote/v1/AcquireLeaseRequest.js';
import type { AddUsageRequest as _loam_remote_v1_AddUsageRequest, AddUsageRequest__Output as _loam_remote_v1_AddUsageRequest__Output } from './loam/remote/v1/AddUsageRequest.js';
import type { AliasAction as _loam_remote_v1_AliasAction, AliasAction__Output as _loam_remote_v1_AliasAction__Output } from './loam/remote/v1/AliasAction.js';
import type { Aliases as _loam_remote_v1_Aliases, Aliases__Output as _loam_remote_v1_Aliases__Output } from './loam/remote/v1/Aliases.js';
import type { ApiKeyInfo as _loam_remote_v1_ApiKeyInfo, ApiKeyInfo__Output as _loam_remote_v1_ApiKeyInfo__Output } from './loam/remote/v1/ApiKeyInfo.js';
import type { ApiKeyPage as _loam_remote_v1_ApiKeyPage, ApiKeyPage__Output as _loam_remote_v1_ApiKeyPage__Output } from './loam/remote/v1/ApiKeyPage.js';
import type { ApiKeyRecord as _loam_remote_v1_ApiKeyRecord, ApiKeyRecord__Output as _loam_remote_v1_ApiKeyRecord__Output } from './loam/remote/v1/ApiKeyRecord.js';
import type { AssignedRange as _loam_remote_v1_AssignedRange, AssignedRange__Output as _loam_remote_v1_AssignedRange__Output } from './loam/remote/v1/AssignedRange.js';
import type { BatchedCommitWal as _loam_remote_v1_BatchedCommitWal, BatchedCommitWal__Output as _loam_remote_v1_BatchedCommitWal__Output } from './loam/remote/v1/BatchedCommitWal.js';
import type { BindingRequest as _loam_remote_v1_BindingRequest, BindingRequest__Output as _loam_remote_v1_BindingRequest__Output } from './loam/remote/v1/BindingRequest.js';
import type { BindingTarget as _loam_remote_v1_BindingTarget, BindingTarget__Output as _loam_remote_v1_BindingTarget__Output } from './loam/remote/v1/BindingTarget.js';
import type { BindingsRequest as _loam_remote_v1_BindingsRequest, BindingsRequest__Output as _loam_remote_v1_BindingsRequest__Output } from './loam/remote/v1/BindingsRequest.js';
import type { BoolValue as _loam_remote_v1_BoolValue, BoolValue__Output as _loam_remote_v1_BoolValue__Output } from './loam/remote/v1/BoolValue.js';
import type { Capabilities as _loam_remote_v1_Capabilities, Capabilities__Output as _loam_remote_v1_Capabilities__Output } from './loam/remote/v1/Capabilities.js';
import type { CasPointerRequest as _loam_remote_v1_CasPointerRequest, CasPointerRequest__Output as _loam_remote_v1_CasPointerRequest__Output } from './loam/remote/v1/CasPointerRequest.js';
import type { CatalogChange as _loam_remote_v1_CatalogChange, CatalogChange__Output as _loam_remote_v1_CatalogChange__Output } from './loam/remote/v1/CatalogChange.js';
import type { ChangeEvent as _loam_remote_v1_ChangeEvent, ChangeEvent__Output as _loam_remote_v1_ChangeEvent__Output } from './loam/remote/v1/ChangeEvent.js';
import type { ChangesPage as _loam_remote_v1_ChangesPage, ChangesPage__Output as _loam_remote_v1_ChangesPage__Output } from './loam/remote/v1/ChangesPage.js';
import type { ChangesSinceRequest as _loam_remote_v1_ChangesSinceRequest, ChangesSinceRequest__Output as _loam_remote_v1_ChangesSinceRequest__Output } from './loam/remote/v1/ChangesSinceRequest.js';
import type { ClaimObjectRequest as _loam_remote_v1_ClaimObjectRequest, ClaimObjectRequest__Output as _loam_remote_v1_ClaimObjectRequest__Output } from './loam/remote/v1/ClaimObjectRequest.js';
import type { ClaimResult as _loam_remote_v1_ClaimResult, ClaimResult__Output as _loam_remote_v1_ClaimResult__Output } from './loam/remote/v1/ClaimResult.js';
import type { Collection as _loam_remote_v1_Collection, Collection__Output as _loam_remote_v1_Collection__Output } from './loam/remote/v1/Collection.js';
import type { CollectionByNameRequest as _loam_remote_v1_CollectionByNameRequest, CollectionByNameRequest__Output as _loam_remote_v1_CollectionByNameRequest__Output } from './loam/remote/v1/CollectionByNameRequest.js';
import type { CollectionHead as _loam_remote_v1_CollectionHead, CollectionHead__Output as _loam_remote_v1_CollectionHead__Output } from './loam/remote/v1/CollectionHead.js';
import type { CollectionHeadRequest as _loam_remote_v1_CollectionHeadRequest, CollectionHeadRequest__Output as _loam_remote_v1_CollectionHeadRequest__Output } from './loam/remote/v1/CollectionHeadRequest.js';
import type { CollectionPage as _loam_remote_v1_CollectionPage, CollectionPage__Output as _loam_remote_v1_CollectionPage__Output } from './loam/remote/v1/CollectionPage.js';
import type { CollectionSchema as _loam_remote_v1_CollectionSchema, CollectionSchema__Output as _loam_remote_v1_CollectionSchema__Output } from './loam/remote/v1/CollectionSchema.js';
import type { CommitWalBatchRequest as _loam_remote_v1_CommitWalBatchRequest, CommitWalBatchRequest__Output as _loam_remote_v1_CommitWalBatchRequest__Output } from './loam/remote/v1/CommitWalBatchRequest.js';
import type { CommitWalBatchResult as _loam_remote_v1_CommitWalBatchResult, CommitWalBatchResult__Output as _loam_remote_v1_CommitWalBatchResult__Output } from './loam/remote/v1/CommitWalBatchResult.js';
import type { CommitWalOutcome as _loam_remote_v1_CommitWalOutcome, CommitWalOutcome__Output as _loam_remote_v1_CommitWalOutcome__Output } from './loam/remote/v1/CommitWalOutcome.js';
import type { CommitWalRequest as _loam_remote_v1_CommitWalRequest, CommitWalRequest__Output as _loam_remote_v1_CommitWalRequest__Output } from './loam/remote/v1/CommitWalRequest.js';
import type { CommitWalStreamRequest as _loam_remote_v1_CommitWalStreamRequest, CommitWalStreamRequest__Output as _loam_remote_v1_CommitWalStreamRequest__Output } from './loam/remote/v1/CommitWalStreamRequest.js';
import type { CommitWalStreamResult as _loam_remote_v1_CommitWalStreamResult, CommitWalStreamResult__Output as _loam_remote_v1_CommitWalStreamResult__Output } from './loam/remote/v1/CommitWalStreamResult.js';
import type { ControlCapabilities as _loam_remote_v1_ControlCapabilities, ControlCapabilities__Output as _loam_remote_v1_ControlCapabilities__Output } from './loam/remote/v1/ControlCapabilities.js';
import type { ControlChange as _loam_remote_v1_ControlChange, ControlChange__Output as _loam_remote_v1_ControlChange__Output } from './loam/remote/v1/ControlChange.js';
import type { ControlChangeList as _loam_remote_v1_ControlChangeList, ControlChangeList__Output as _loam_remote_v1_ControlChangeList__Output } from './loam/remote/v1/ControlChangeList.js';
import type { ControlChangesSinceRequest as _loam_remote_v1_ControlChangesSinceRequest, ControlChangesSinceRequest__Output as _loam_remote_v1_ControlChangesSinceRequest__Output } from './loam/remote/v1/ControlChangesSinceRequest.js';
import type { ControlPageRequest as _loam_remote_v1_ControlPageRequest, ControlPageRequest__Output as _loam_remote_v1_ControlPageRequest__Output } from './loam/remote/v1/ControlPageRequest.js';
import type { ControlStoreClient as _loam_remote_v1_ControlStoreClient, ControlStoreDefinition as _loam_remote_v1_ControlStoreDefinition } from './loam/remote/v1/ControlStore.js';
import type { CreateCollectionRequest as _loam_remote_v1_CreateCollectionRequest, CreateCollectionRequest__Output as _loam_remote_v1_CreateCollectionRequest__Output } from './loam/remote/v1/CreateCollectionRequest.js';
import type { CreateErasureRequest as _loam_remote_v1_CreateErasureRequest, CreateErasureRequest__Output as _loam_remote_v1_CreateErasureRequest__Output } from './loam/remote/v1/CreateErasureRequest.js';
import type { CreateKeyRequest as _loam_remote_v1_CreateKeyRequest, CreateKeyRequest__Output as _loam_remote_v1_CreateKeyRequest__Output } from './loam/remote/v1/CreateKeyRequest.js';
import type { CreateNamespaceRequest as _loam_remote_v1_CreateNamespaceRequest, CreateNamespaceRequest__Output as _loam_remote_v1_CreateNamespaceRequest__Output } from './loam/remote/v1/CreateNamespaceRequest.js';
import type { CreateOrgRequest as _loam_remote_v1_CreateOrgRequest, CreateOrgRequest__Output as _loam_remote_v1_CreateOrgRequest__Output } from './loam/remote/v1/CreateOrgRequest.js';
import type { CreateStreamRequest as _loam_remote_v1_CreateStreamRequest, CreateStreamRequest__Output as _loam_remote_v1_CreateStreamRequest__Output } from './loam/remote/v1/CreateStreamRequest.js';
import type { CreateTagRequest as _loam_remote_v1_CreateTagRequest, CreateTagRequest__Output as _loam_remote_v1_CreateTagRequest__Output } from './loam/remote/v1/CreateTagRequest.js';
import type { DestroyErasureKeysRequest as _loam_remote_v1_DestroyErasureKeysRequest, DestroyErasureKeysRequest__Output as _loam_remote_v1_DestroyErasureKeysRequest__Output } from './loam/remote/v1/DestroyErasureKeysRequest.js';
import type { DestroyedCount as _loam_remote_v1_DestroyedCount, DestroyedCount__Output as _loam_remote_v1_DestroyedCount__Output } from './loam/remote/v1/DestroyedCount.js';
import type { DropCollectionRequest as _loam_remote_v1_DropCollectionRequest, DropCollectionRequest__Output as _loam_remote_v1_DropCollectionRequest__Output } from './loam/remote/v1/DropCollectionRequest.js';
import type { DropNamespaceBindingsRequest as _loam_remote_v1_DropNamespaceBindingsRequest, DropNamespaceBindingsRequest__Output as _loam_remote_v1_DropNamespaceBindingsRequest__Output } from './loam/remote/v1/DropNamespaceBindingsRequest.js';
import type { DropNamespaceRequest as _loam_remote_v1_DropNamespaceRequest, DropNamespaceRequest__Output as _loam_remote_v1_DropNamespaceRequest__Output } from './loam/remote/v1/DropNamespaceRequest.js';
import type { DropStreamRequest as _loam_remote_v1_DropStreamRequest, DropStreamRequest__Output as _loam_remote_v1_DropStreamRequest__Output } from './loam/remote/v1/DropStreamRequest.js';
import type { DropTagRequest as _loam_remote_v1_DropTagRequest, DropTagRequest__Output as _loam_remote_v1_DropTagRequest__Output } from './loam/remote/v1/DropTagRequest.js';
import type { DueHead as _loam_remote_v1_DueHead, DueHead__Output as _loam_remote_v1_DueHead__Output } from './loam/remote/v1/DueHead.js';
import type { DueHeadPage as _loam_remote_v1_DueHeadPage, DueHeadPage__Output as _loam_remote_v1_DueHeadPage__Output } from './loam/remote/v1/DueHeadPage.js';
import type { DueHeadsRequest as _loam_remote_v1_DueHeadsRequest, DueHeadsRequest__Output as _loam_remote_v1_DueHeadsRequest__Output } from './loam/remote/v1/DueHeadsRequest.js';
import type { Empty as _loam_remote_v1_Empty, Empty__Output as _loam_remote_v1_Empty__Output } from './loam/remote/v1/Empty.js';
import type { ErasureKey as _loam_remote_v1_ErasureKey, ErasureKey__Output as _loam_remote_v1_ErasureKey__Output } from './loam/remote/v1/ErasureKey.js';
import type { ErasureKeyList as _loam_remote_v1_ErasureKeyList, ErasureKeyList__Output as _loam_remote_v1_ErasureKeyList__Output } from './loam/remote/v1/ErasureKeyList.js';
import type { ErasureKeysRequest as _loam_remote_v1_ErasureKeysRequest, ErasureKeysRequest__Output as _loam_remote_v1_ErasureKeysRequest__Output } from './loam/remote/v1/ErasureKeysRequest.js';
import type { ErasurePage as _loam_remote_v1_ErasurePage, ErasurePage__Output as _loam_remote_v1_ErasurePage__Output } from './loam/remote/v1/ErasurePage.js';
import type { ErasureRow as _loam_remote_v1_ErasureRow, ErasureRow__Output as _loam_remote_v1_ErasureRow__Output } from './loam/remote/v1/ErasureRow.js';
import type { ErrorDetail as _loam_remote_v1_ErrorDetail, ErrorDetail__Output as _loam_remote_v1_ErrorDetail__Output } from './loam/remote/v1/ErrorDetail.js';
import type { ErrorDetails as _loam_remote_v1_ErrorDetails, ErrorDetails__Output as _loam_remote_v1_ErrorDetails__Output } from './loam/remote/v1/ErrorDetails.js';
import type { Fence as _loam_remote_v1_Fence, Fence__Output as _loam_remote_v1_Fence__Output } from './loam/remote/v1/Fence.js';
import type { GetAliasesRequest as _loam_remote_v1_GetAliasesRequest, GetAliasesRequest__Output as _loam_remote_v1_GetAliasesRequest__Output } from './loam/remote/v1/GetAliasesRequest.js';
import type { GetCollectionRequest as _loam_remote_v1_GetCollectionRequest, GetCollectionRequest__Output as _loam_remote_v1_GetCollectionRequest__Output } from './loam/remote/v1/GetCollectionRequest.js';
import type { GetErasureRequest as _loam_remote_v1_GetErasureRequest, GetErasureRequest__Output as _loam_remote_v1_GetErasureRequest__Output } from './loam/remote/v1/GetErasureRequest.js';
import type { GetKeyRequest as _loam_remote_v1_GetKeyRequest, GetKeyRequest__Output as _loam_remote_v1_GetKeyRequest__Output } from './loam/remote/v1/GetKeyRequest.js';
import type { GetLeaseRequest as _loam_remote_v1_GetLeaseRequest, GetLeaseRequest__Output as _loam_remote_v1_GetLeaseRequest__Output } from './loam/remote/v1/GetLeaseRequest.js';
import type { GetNamespaceRequest as _loam_remote_v1_GetNamespaceRequest, GetNamespaceRequest__Output as _loam_remote_v1_GetNamespaceRequest__Output } from './loam/remote/v1/GetNamespaceRequest.js';
import type { GetOrgRequest as _loam_remote_v1_GetOrgRequest, GetOrgRequest__Output as _loam_remote_v1_GetOrgRequest__Output } from './loam/remote/v1/GetOrgRequest.js';
import type { GetPointerRequest as _loam_remote_v1_GetPointerRequest, GetPointerRequest__Output as _loam_remote_v1_GetPointerRequest__Output } from './loam/remote/v1/GetPointerRequest.js';
import type { GetStreamRequest as _loam_remote_v1_GetStreamRequest, GetStreamRequest__Output as _loam_remote_v1_GetStreamRequest__Output } from './loam/remote/v1/GetStreamRequest.js';
import type { HeartbeatRequest as _loam_remote_v1_HeartbeatRequest, HeartbeatRequest__Output as _loam_remote_v1_HeartbeatRequest__Output } from './loam/remote/v1/HeartbeatRequest.js';
import type { IndexEntry as _loam_remote_v1_IndexEntry, IndexEntry__Output as _loam_remote_v1_IndexEntry__Output } from './loam/remote/v1/IndexEntry.js';
import type { JanitorRequest as _loam_remote_v1_JanitorRequest, JanitorRequest__Output as _loam_remote_v1_JanitorRequest__Output } from './loam/remote/v1/JanitorRequest.js';
import type { JanitorResult as _loam_remote_v1_JanitorResult, JanitorResult__Output as _loam_remote_v1_JanitorResult__Output } from './loam/remote/v1/JanitorResult.js';
import type { JobPositionRequest as _loam_remote_v1_JobPositionRequest, JobPositionRequest__Output as _loam_remote_v1_JobPositionRequest__Output } from './loam/remote/v1/JobPositionRequest.js';
import type { JobPositionValue as _loam_remote_v1_JobPositionValue, JobPositionValue__Output as _loam_remote_v1_JobPositionValue__Output } from './loam/remote/v1/JobPositionValue.js';
import type { KeyTouch as _loam_remote_v1_KeyTouch, KeyTouch__Output as _loam_remote_v1_KeyTouch__Output } from './loam/remote/v1/KeyTouch.js';
import type { Lease as _loam_remote_v1_Lease, Lease__Output as _loam_remote_v1_Lease__Output } from './loam/remote/v1/Lease.js';
import type { LeaseScope as _loam_remote_v1_LeaseScope, LeaseScope__Output as _loam_remote_v1_LeaseScope__Output } from './loam/remote/v1/LeaseScope.js';
import type { LeaveRequest as _loam_remote_v1_LeaveRequest, LeaveRequest__Output as _loam_remote_v1_LeaveRequest__Output } from './loam/remote/v1/LeaveRequest.js';
import type { ListBindingsRequest as _loam_remote_v1_ListBindingsRequest, ListBindingsRequest__Output as _loam_remote_v1_ListBindingsRequest__Output } from './loam/remote/v1/ListBindingsRequest.js';
import type { ListCollectionsRequest as _loam_remote_v1_ListCollectionsRequest, ListCollectionsRequest__Output as _loam_remote_v1_ListCollectionsRequest__Output } from './loam/remote/v1/ListCollectionsRequest.js';
import type { ListErasuresRequest as _loam_remote_v1_ListErasuresRequest, ListErasuresRequest__Output as _loam_remote_v1_ListErasuresRequest__Output } from './loam/remote/v1/ListErasuresRequest.js';
import type { ListKeysRequest as _loam_remote_v1_ListKeysRequest, ListKeysRequest__Output as _loam_remote_v1_ListKeysRequest__Output } from './loam/remote/v1/ListKeysRequest.js';
import type { ListNamespacesRequest as _loam_remote_v1_ListNamespacesRequest, ListNamespacesRequest__Output as _loam_remote_v1_ListNamespacesRequest__Output } from './loam/remote/v1/ListNamespacesRequest.js';
import type { ListOrgsRequest as _loam_remote_v1_ListOrgsRequest, ListOrgsRequest__Output as _loam_remote_v1_ListOrgsRequest__Output } from './loam/remote/v1/ListOrgsRequest.js';
import type { ListStreamsRequest as _loam_remote_v1_ListStreamsRequest, ListStreamsRequest__Output as _loam_remote_v1_ListStreamsRequest__Output } from './loam/remote/v1/ListStreamsRequest.js';
import type { ListTagsRequest as _loam_remote_v1_ListTagsRequest, ListTagsRequest__Output as _loam_remote_v1_ListTagsRequest__Output } from './loam/remote/v1/ListTagsRequest.js';
import type { Member as _loam_remote_v1_Member, Member__Output as _loam_remote_v1_Member__Output } from './loam/remote/v1/Member.js';
import type { MemberList as _loam_remote_v1_MemberList, MemberList__Output as _loam_remote_v1_MemberList__Output } from './loam/remote/v1/MemberList.js';
import type { MembersRequest as _loam_remote_v1_MembersRequest, MembersRequest__Output as _loam_remote_v1_MembersRequest__Output } from './loam/remote/v1/MembersRequest.js';
import type { MetaStoreClient as _loam_remote_v1_MetaStoreClient, MetaStoreDefinition as _loam_remote_v1_MetaStoreDefinition } from './loam/remote/v1/MetaStore.js';
import type { Namespace as _loam_remote_v1_Namespace, Namespace__Output as _loam_remote_v1_Namespace__Output } from './loam/remote/v1/Namespace.js';
import type { NamespaceByNameRequest as _loam_remote_v1_NamespaceByNameRequest, NamespaceByNameRequest__Output as _loam_remote_v1_NamespaceByNameRequest__Output } from './loam/remote/v1/NamespaceByNameRequest.js';
import type { NamespacePage as _loam_remote_v1_NamespacePage, NamespacePage__Output as _loam_remote_v1_NamespacePage__Output } from './loam/remote/v1/NamespacePage.js';
import type { ObjectRef as _loam_remote_v1_ObjectRef, ObjectRef__Output as _loam_remote_v1_ObjectRef__Output } from './loam/remote/v1/ObjectRef.js';
import type { ObjectRefRequest as _loam_remote_v1_ObjectRefRequest, ObjectRefRequest__Output as _loam_remote_v1_ObjectRefRequest__Output } from './loam/remote/v1/ObjectRefRequest.js';
import type { OptionalLease as _loam_remote_v1_OptionalLease, OptionalLease__Output as _loam_remote_v1_OptionalLease__Output } from './loam/remote/v1/OptionalLease.js';
import type { OptionalObjectRef as _loam_remote_v1_OptionalObjectRef, OptionalObjectRef__Output as _loam_remote_v1_OptionalObjectRef__Output } from './loam/remote/v1/OptionalObjectRef.js';
import type { OptionalPointer as _loam_remote_v1_OptionalPointer, OptionalPointer__Output as _loam_remote_v1_OptionalPointer__Output } from './loam/remote/v1/OptionalPointer.js';
import type { OptionalPointerVersion as _loam_remote_v1_OptionalPointerVersion, OptionalPointerVersion__Output as _loam_remote_v1_OptionalPointerVersion__Output } from './loam/remote/v1/OptionalPointerVersion.js';
import type { Org as _loam_remote_v1_Org, Org__Output as _loam_remote_v1_Org__Output } from './loam/remote/v1/Org.js';
import type { OrgPage as _loam_remote_v1_OrgPage, OrgPage__Output as _loam_remote_v1_OrgPage__Output } from './loam/remote/v1/OrgPage.js';
import type { OutboxEntry as _loam_remote_v1_OutboxEntry, OutboxEntry__Output as _loam_remote_v1_OutboxEntry__Output } from './loam/remote/v1/OutboxEntry.js';
import type { OutboxEntryList as _loam_remote_v1_OutboxEntryList, OutboxEntryList__Output as _loam_remote_v1_OutboxEntryList__Output } from './loam/remote/v1/OutboxEntryList.js';
import type { OutboxRequest as _loam_remote_v1_OutboxRequest, OutboxRequest__Output as _loam_remote_v1_OutboxRequest__Output } from './loam/remote/v1/OutboxRequest.js';
import type { PageRequest as _loam_remote_v1_PageRequest, PageRequest__Output as _loam_remote_v1_PageRequest__Output } from './loam/remote/v1/PageRequest.js';
import type { PartitionHead as _loam_remote_v1_PartitionHead, PartitionHead__Output as _loam_remote_v1_PartitionHead__Output } from './loam/remote/v1/PartitionHead.js';
import type { PartitionIndex as _loam_remote_v1_PartitionIndex, PartitionIndex__Output as _loam_remote_v1_PartitionIndex__Output } from './loam/remote/v1/PartitionIndex.js';
import type { PartitionIndexRequest as _loam_remote_v1_PartitionIndexRequest, PartitionIndexRequest__Output as _loam_remote_v1_PartitionIndexRequest__Output } from './loam/remote/v1/PartitionIndexRequest.js';
import type { Pointer as _loam_remote_v1_Pointer, Pointer__Output as _loam_remote_v1_Pointer__Output } from './loam/remote/v1/Pointer.js';
import type { PointerVersion as _loam_remote_v1_PointerVersion, PointerVersion__Output as _loam_remote_v1_PointerVersion__Output } from './loam/remote/v1/PointerVersion.js';
import type { PointerVersionRequest as _loam_remote_v1_PointerVersionRequest, PointerVersionRequest__Output as _loam_remote_v1_PointerVersionRequest__Output } from './loam/remote/v1/PointerVersionRequest.js';
import type { PutErasureKeyRequest as _loam_remote_v1_PutErasureKeyRequest, PutErasureKeyRequest__Output as _loam_remote_v1_PutErasureKeyRequest__Output } from './loam/remote/v1/PutErasureKeyRequest.js';
import type { PutUsageRequest as _loam_remote_v1_PutUsageRequest, PutUsageRequest__Output as _loam_remote_v1_PutUsageRequest__Output } from './loam/remote/v1/PutUsageRequest.js';
import type { PutUsageRow as _loam_remote_v1_PutUsageRow, PutUsageRow__Output as _loam_remote_v1_PutUsageRow__Output } from './loam/remote/v1/PutUsageRow.js';
import type { QuotaOverride as _loam_remote_v1_QuotaOverride, QuotaOverride__Output as _loam_remote_v1_QuotaOverride__Output } from './loam/remote/v1/QuotaOverride.js';
import type { QuotaOverrideList as _loam_remote_v1_QuotaOverrideList, QuotaOverrideList__Output as _loam_remote_v1_QuotaOverrideList__Output } from './loam/remote/v1/QuotaOverrideList.js';
import type { QuotasRequest as _loam_remote_v1_QuotasRequest, QuotasRequest__Output as _loam_remote_v1_QuotasRequest__Output } from './loam/remote/v1/QuotasRequest.js';
import type { ReadOptions as _loam_remote_v1_ReadOptions, ReadOptions__Output as _loam_remote_v1_ReadOptions__Output } from './loam/remote/v1/ReadOptions.js';
import type { ReleaseClaimRequest as _loam_remote_v1_ReleaseClaimRequest, ReleaseClaimRequest__Output as _loam_remote_v1_ReleaseClaimRequest__Output } from './loam/remote/v1/ReleaseClaimRequest.js';
import type { ReleaseLeaseRequest as _loam_remote_v1_ReleaseLeaseRequest, ReleaseLeaseRequest__Output as _loam_remote_v1_ReleaseLeaseRequest__Output } from './loam/remote/v1/ReleaseLeaseRequest.js';
import type { RenewLeaseRequest as _loam_remote_v1_RenewLeaseRequest, RenewLeaseRequest__Output as _loam_remote_v1_RenewLeaseRequest__Output } from './loam/remote/v1/RenewLeaseRequest.js';
import type { Retention as _loam_remote_v1_Retention, Retention__Output as _loam_remote_v1_Retention__Output } from './loam/remote/v1/Retention.js';
import type { RetiredWalObject as _loam_remote_v1_RetiredWalObject, RetiredWalObject__Output as _loam_remote_v1_RetiredWalObject__Output } from './loam/remote/v1/RetiredWalObject.js';
import type { RetiredWalObjectPage as _loam_remote_v1_RetiredWalObjectPage, RetiredWalObjectPage__Output as _loam_remote_v1_RetiredWalObjectPage__Output } from './loam/remote/v1/RetiredWalObjectPage.js';
import type { RetiredWalObjectsRequest as _loam_remote_v1_RetiredWalObjectsRequest, RetiredWalObjectsRequest__Output as _loam_remote_v1_RetiredWalObjectsRequest__Output } from './loam/remote/v1/RetiredWalObjectsRequest.js';
import type { RevokeKeyRequest as _loam_remote_v1_RevokeKeyRequest, RevokeKeyRequest__Output as _loam_remote_v1_RevokeKeyRequest__Output } from './loam/remote/v1/RevokeKeyRequest.js';
import type { RewriteTagRequest as _loam_remote_v1_RewriteTagRequest, RewriteTagRequest__Output as _loam_remote_v1_RewriteTagRequest__Output } from './loam/remote/v1/RewriteTagRequest.js';
import type { RoleBinding as _loam_remote_v1_RoleBinding, RoleBinding__Output as _loam_remote_v1_RoleBinding__Output } from './loam/remote/v1/RoleBinding.js';
import type { RoleBindingList as _loam_remote_v1_RoleBindingList, RoleBindingList__Output as _loam_remote_v1_RoleBindingList__Output } from './loam/remote/v1/RoleBindingList.js';
import type { RoleBindingPage as _loam_remote_v1_RoleBindingPage, RoleBindingPage__Output as _loam_remote_v1_RoleBindingPage__Output } from './loam/remote/v1/RoleBindingPage.js';
import type { SaveJobPositionRequest as _loam_remote_v1_SaveJobPositionRequest, SaveJobPositionRequest__Output as _loam_remote_v1_SaveJobPositionRequest__Output } from './loam/remote/v1/SaveJobPositionRequest.js';
import type { SegmentReferencedRequest as _loam_remote_v1_SegmentReferencedRequest, SegmentReferencedRequest__Output as _loam_remote_v1_SegmentReferencedRequest__Output } from './loam/remote/v1/SegmentReferencedRequest.js';
import type { SegmentSwap as _loam_remote_v1_SegmentSwap, SegmentSwap__Output as _loam_remote_v1_SegmentSwap__Output } from './loam/remote/v1/SegmentSwap.js';
import type { SetQuotaRequest as _loam_remote_v1_SetQuotaRequest, SetQuotaRequest__Output as _loam_remote_v1_SetQuotaRequest__Output } from './loam/remote/v1/SetQuotaRequest.js';
import type { SetRetentionRequest as _loam_remote_v1_SetRetentionRequest, SetRetentionRequest__Output as _loam_remote_v1_SetRetentionRequest__Output } from './loam/remote/v1/SetRetentionRequest.js';
import type { SettleHeadRequest as _loam_remote_v1_SettleHeadRequest, SettleHeadRequest__Output as _loam_remote_v1_SettleHeadRequest__Output } from './loam/remote/v1/SettleHeadRequest.js';
import type { Stream as _loam_remote_v1_Stream, Stream__Output as _loam_remote_v1_Stream__Output } from './loam/remote/v1/Stream.js';
import type { StreamPage as _loam_remote_v1_StreamPage, StreamPage__Output as _loam_remote_v1_StreamPage__Output } from './loam/remote/v1/StreamPage.js';
import type { StreamState as _loam_remote_v1_StreamState, StreamState__Output as _loam_remote_v1_StreamState__Output } from './loam/remote/v1/StreamState.js';
import type { StreamStateRequest as _loam_remote_v1_StreamStateRequest, StreamStateRequest__Output as _loam_remote_v1_StreamStateRequest__Output } from './loam/remote/v1/StreamStateRequest.js';
import type { SwapSegmentRequest as _loam_remote_v1_SwapSegmentRequest, SwapSegmentRequest__Output as _loam_remote_v1_SwapSegmentRequest__Output } from './loam/remote/v1/SwapSegmentRequest.js';
import type { SwapSegmentResult as _loam_remote_v1_SwapSegmentResult, SwapSegmentResult__Output as _loam_remote_v1_SwapSegmentResult__Output } from './loam/remote/v1/SwapSegmentResult.js';
import type { Tag as _loam_remote_v1_Tag, Tag__Output as _loam_remote_v1_Tag__Output } from './loam/remote/v1/Tag.js';
import type { TagPage as _loam_remote_v1_TagPage, TagPage__Output as _loam_remote_v1_TagPage__Output } from './loam/remote/v1/TagPage.js';
import type { TouchKeysRequest as _loam_remote_v1_TouchKeysRequest, TouchKeysRequest__Output as _loam_remote_v1_TouchKeysRequest__Output } from './loam/remote/v1/TouchKeysRequest.js';
import type { TrimPartitionRequest as _loam_remote_v1_TrimPartitionRequest, TrimPartitionRequest__Output as _loam_remote_v1_TrimPartitionRequest__Output } from './loam/remote/v1/TrimPartitionRequest.js';
import type { UpdateAliasesRequest as _loam_remote_v1_UpdateAliasesRequest, UpdateAliasesRequest__Output as _loam_remote_v1_UpdateAliasesRequest__Output } from './loam/remote/v1/UpdateAliasesRequest.js';
import type { UpdateCollectionSchemaRequest as _loam_remote_v1_UpdateCollectionSchemaRequest, UpdateCollectionSchemaRequest__Output as _loam_remote_v1_UpdateCollectionSchemaRequest__Output } from './loam/remote/v1/UpdateCollectionSchemaRequest.js';
import type { UpdateErasureRequest as _loam_remote_v1_UpdateErasureRequest, UpdateErasureRequest__Output as _loam_remote_v1_UpdateErasureRequest__Output } from './loam/remote/v1/UpdateErasureRequest.js';
import type { UsageDelta as _loam_remote_v1_UsageDelta, UsageDelta__Output as _loam_remote_v1_UsageDelta__Output } from './loam/remote/v1/UsageDelta.js';
import type { UsageRequest as _loam_remote_v1_UsageRequest, UsageRequest__Output as _loam_remote_v1_UsageRequest__Output } from './loam/remote/v1/UsageRequest.js';
import type { UsageRollup as _loam_remote_v1_UsageRollup, UsageRollup__Output as _loam_remote_v1_UsageRollup__Output } from './loam/remote/v1/UsageRollup.js';
import type { UsageRollupList as _loam_remote_v1_UsageRollupList, UsageRollupList__Output as _loam_remote_v1_UsageRollupList__Output } from './loam/remote/v1/UsageRollupList.js';
import type { VersionValue as _loam_remote_v1_VersionValue, VersionValue__Output as _loam_remote_v1_VersionValue__Output } from './loam/remote/v1/VersionValue.js';
import type { WalChunk as _loam_remote_v1_WalChunk, WalChunk__Output as _loam_remote_v1_WalChunk__Output } from './loam/remote/v1/WalChunk.js';
import type { WalCommit as _loam_remote_v1_WalCommit, WalCommit__Output as _loam_remote_v1_WalCommit__Output } from './loam/remote/v1/WalCommit.js';
import type { WalCommitResult as _loam_remote_v1_WalCommitResult, WalCommitResult__Output as _loam_remote_v1_WalCommitResult__Output } from './loam/remote/v1/WalCommitResult.js';
import type { WatchChangesRequest as _loam_remote_v1_WatchChangesRequest, WatchChangesRequest__Output as _loam_remote_v1_WatchChangesRequest__Output } from './loam/remote/v1/WatchChangesRequest.js';
import type { WatchScope as _loam_remote_v1_WatchScope, WatchScope__Output as _loam_remote_v1_WatchScope__Output } from './loam/remote/v1/WatchScope.js';
import type { WriteContext as _loam_remote_v1_WriteContext, WriteContext__Output as _loam_remote_v1_WriteContext__Output } from './loam/remote/v1/WriteContext.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  loam: {
    remote: {
      v1: {
        AckOutboxRequest: MessageTypeDefinition<_loam_remote_v1_AckOutboxRequest, _loam_remote_v1_AckOutboxRequest__Output>
        AcquireLeaseRequest: MessageTypeDefinition<_loam_remote_v1_AcquireLeaseRequest, _loam_remote_v1_AcquireLeaseRequest__Output>
        AddUsageRequest: MessageTypeDefinition<_loam_remote_v1_AddUsageRequest, _loam_remote_v1_AddUsageRequest__Output>
        AliasAction: MessageTypeDefinition<_loam_remote_v1_AliasAction, _loam_remote_v1_AliasAction__Output>
        Aliases: MessageTypeDefinition<_loam_remote_v1_Aliases, _loam_remote_v1_Aliases__Output>
        ApiKeyInfo: MessageTypeDefinition<_loam_remote_v1_ApiKeyInfo, _loam_remote_v1_ApiKeyInfo__Output>
        ApiKeyPage: MessageTypeDefinition<_loam_remote_v1_ApiKeyPage, _loam_remote_v1_ApiKeyPage__Output>
        ApiKeyRecord: MessageTypeDefinition<_loam_remote_v1_ApiKeyRecord, _loam_remote_v1_ApiKeyRecord__Output>
        AssignedRange: MessageTypeDefinition<_loam_remote_v1_AssignedRange, _loam_remote_v1_AssignedRange__Output>
        BatchedCommitWal: MessageTypeDefinition<_loam_remote_v1_BatchedCommitWal, _loam_remote_v1_BatchedCommitWal__Output>
        BindingRequest: MessageTypeDefinition<_loam_remote_v1_BindingRequest, _loam_remote_v1_BindingRequest__Output>
        BindingTarget: MessageTypeDefinition<_loam_remote_v1_BindingTarget, _loam_remote_v1_BindingTarget__Output>
        BindingsRequest: MessageTypeDefinition<_loam_remote_v1_BindingsRequest, _loam_remote_v1_BindingsRequest__Output>
        BoolValue: MessageTypeDefinition<_loam_remote_v1_BoolValue, _loam_remote_v1_BoolValue__Output>
        Capabilities: MessageTypeDefinition<_loam_remote_v1_Capabilities, _loam_remote_v1_Capabilities__Output>
        CasPointerRequest: MessageTypeDefinition<_loam_remote_v1_CasPointerRequest, _loam_remote_v1_CasPointerRequest__Output>
        CatalogChange: MessageTypeDefinition<_loam_remote_v1_CatalogChange, _loam_remote_v1_CatalogChange__Output>
        ChangeEvent: MessageTypeDefinition<_loam_remote_v1_ChangeEvent, _loam_remote_v1_ChangeEvent__Output>
        ChangeFeed: EnumTypeDefinition
        ChangeKind: EnumTypeDefinition
        ChangesPage: MessageTypeDefinition<_loam_remote_v1_ChangesPage, _loam_remote_v1_ChangesPage__Output>
        ChangesSinceRequest: MessageTypeDefinition<_loam_remote_v1_ChangesSinceRequest, _loam_remote_v1_ChangesSinceRequest__Output>
        ClaimObjectRequest: MessageTypeDefinition<_loam_remote_v1_ClaimObjectRequest, _loam_remote_v1_ClaimObjectRequest__Output>
        ClaimResult: MessageTypeDefinition<_loam_remote_v1_ClaimResult, _loam_remote_v1_ClaimResult__Output>
        Collection: MessageTypeDefinition<_loam_remote_v1_Collection, _loam_remote_v1_Collection__Output>
        CollectionByNameRequest: MessageTypeDefinition<_loam_remote_v1_CollectionByNameRequest, _loam_remote_v1_CollectionByNameRequest__Output>
        CollectionHead: MessageTypeDefinition<_loam_remote_v1_CollectionHead, _loam_remote_v1_CollectionHead__Output>
        CollectionHeadRequest: MessageTypeDefinition<_loam_remote_v1_CollectionHeadRequest, _loam_remote_v1_CollectionHeadRequest__Output>
        CollectionPage: MessageTypeDefinition<_loam_remote_v1_CollectionPage, _loam_remote_v1_CollectionPage__Output>
        CollectionSchema: MessageTypeDefinition<_loam_remote_v1_CollectionSchema, _loam_remote_v1_CollectionSchema__Output>
        CommitWalBatchRequest: MessageTypeDefinition<_loam_remote_v1_CommitWalBatchRequest, _loam_remote_v1_CommitWalBatchRequest__Output>
        CommitWalBatchResult: MessageTypeDefinition<_loam_remote_v1_CommitWalBatchResult, _loam_remote_v1_CommitWalBatchResult__Output>
        CommitWalOutcome: MessageTypeDefinition<_loam_remote_v1_CommitWalOutcome, _loam_remote_v1_CommitWalOutcome__Output>
        CommitWalRequest: MessageTypeDefinition<_loam_remote_v1_CommitWalRequest, _loam_remote_v1_CommitWalRequest__Output>
        CommitWalStreamRequest: MessageTypeDefinition<_loam_remote_v1_CommitWalStreamRequest, _loam_remote_v1_CommitWalStreamRequest__Output>
        CommitWalStreamResult: MessageTypeDefinition<_loam_remote_v1_CommitWalStreamResult, _loam_remote_v1_CommitWalStreamResult__Output>
        ControlCapabilities: MessageTypeDefinition<_loam_remote_v1_ControlCapabilities, _loam_remote_v1_ControlCapabilities__Output>
        ControlChange: MessageTypeDefinition<_loam_remote_v1_ControlChange, _loam_remote_v1_ControlChange__Output>
        ControlChangeKind: EnumTypeDefinition
        ControlChangeList: MessageTypeDefinition<_loam_remote_v1_ControlChangeList, _loam_remote_v1_ControlChangeList__Output>
        ControlChangesSinceRequest: MessageTypeDefinition<_loam_remote_v1_ControlChangesSinceRequest, _loam_remote_v1_ControlChangesSinceRequest__Output>
        ControlFeedOrder: EnumTypeDefinition
        ControlPageRequest: MessageTypeDefinition<_loam_remote_v1_ControlPageRequest, _loam_remote_v1_ControlPageRequest__Output>
        ControlStore: SubtypeConstructor<typeof grpc.Client, _loam_remote_v1_ControlStoreClient> & { service: _loam_remote_v1_ControlStoreDefinition }
        CreateCollectionRequest: MessageTypeDefinition<_loam_remote_v1_CreateCollectionRequest, _loam_remote_v1_CreateCollectionRequest__Output>
        CreateErasureRequest: MessageTypeDefinition<_loam_remote_v1_CreateErasureRequest, _loam_remote_v1_CreateErasureRequest__Output>
        CreateKeyRequest: MessageTypeDefinition<_loam_remote_v1_CreateKeyRequest, _loam_remote_v1_CreateKeyRequest__Output>
        CreateNamespaceRequest: MessageTypeDefinition<_loam_remote_v1_CreateNamespaceRequest, _loam_remote_v1_CreateNamespaceRequest__Output>
        CreateOrgRequest: MessageTypeDefinition<_loam_remote_v1_CreateOrgRequest, _loam_remote_v1_CreateOrgRequest__Output>
        CreateStreamRequest: MessageTypeDefinition<_loam_remote_v1_CreateStreamRequest, _loam_remote_v1_CreateStreamRequest__Output>
        CreateTagRequest: MessageTypeDefinition<_loam_remote_v1_CreateTagRequest, _loam_remote_v1_CreateTagRequest__Output>
        DestroyErasureKeysRequest: MessageTypeDefinition<_loam_remote_v1_DestroyErasureKeysRequest, _loam_remote_v1_DestroyErasureKeysRequest__Output>
        DestroyedCount: MessageTypeDefinition<_loam_remote_v1_DestroyedCount, _loam_remote_v1_DestroyedCount__Output>
        DropCollectionRequest: MessageTypeDefinition<_loam_remote_v1_DropCollectionRequest, _loam_remote_v1_DropCollectionRequest__Output>
        DropNamespaceBindingsRequest: MessageTypeDefinition<_loam_remote_v1_DropNamespaceBindingsRequest, _loam_remote_v1_DropNamespaceBindingsRequest__Output>
        DropNamespaceRequest: MessageTypeDefinition<_loam_remote_v1_DropNamespaceRequest, _loam_remote_v1_DropNamespaceRequest__Output>
        DropStreamRequest: MessageTypeDefinition<_loam_remote_v1_DropStreamRequest, _loam_remote_v1_DropStreamRequest__Output>
        DropTagRequest: MessageTypeDefinition<_loam_remote_v1_DropTagRequest, _loam_remote_v1_DropTagRequest__Output>
        DueHead: MessageTypeDefinition<_loam_remote_v1_DueHead, _loam_remote_v1_DueHead__Output>
        DueHeadPage: MessageTypeDefinition<_loam_remote_v1_DueHeadPage, _loam_remote_v1_DueHeadPage__Output>
        DueHeadsRequest: MessageTypeDefinition<_loam_remote_v1_DueHeadsRequest, _loam_remote_v1_DueHeadsRequest__Output>
        Empty: MessageTypeDefinition<_loam_remote_v1_Empty, _loam_remote_v1_Empty__Output>
        EntityState: EnumTypeDefinition
        ErasureKey: MessageTypeDefinition<_loam_remote_v1_ErasureKey, _loam_remote_v1_ErasureKey__Output>
        ErasureKeyList: MessageTypeDefinition<_loam_remote_v1_ErasureKeyList, _loam_remote_v1_ErasureKeyList__Output>
        ErasureKeysRequest: MessageTypeDefinition<_loam_remote_v1_ErasureKeysRequest, _loam_remote_v1_ErasureKeysRequest__Output>
        ErasurePage: MessageTypeDefinition<_loam_remote_v1_ErasurePage, _loam_remote_v1_ErasurePage__Output>
        ErasureRow: MessageTypeDefinition<_loam_remote_v1_ErasureRow, _loam_remote_v1_ErasureRow__Output>
        ErrorCode: EnumTypeDefinition
        ErrorDetail: MessageTypeDefinition<_loam_remote_v1_ErrorDetail, _loam_remote_v1_ErrorDetail__Output>
        ErrorDetails: MessageTypeDefinition<_loam_remote_v1_ErrorDetails, _loam_remote_v1_ErrorDetails__Output>
        Fence: MessageTypeDefinition<_loam_remote_v1_Fence, _loam_remote_v1_Fence__Output>
        FieldType: EnumTypeDefinition
        GetAliasesRequest: MessageTypeDefinition<_loam_remote_v1_GetAliasesRequest, _loam_remote_v1_GetAliasesRequest__Output>
        GetCollectionRequest: MessageTypeDefinition<_loam_remote_v1_GetCollectionRequest, _loam_remote_v1_GetCollectionRequest__Output>
        GetErasureRequest: MessageTypeDefinition<_loam_remote_v1_GetErasureRequest, _loam_remote_v1_GetErasureRequest__Output>
        GetKeyRequest: MessageTypeDefinition<_loam_remote_v1_GetKeyRequest, _loam_remote_v1_GetKeyRequest__Output>
        GetLeaseRequest: MessageTypeDefinition<_loam_remote_v1_GetLeaseRequest, _loam_remote_v1_GetLeaseRequest__Output>
        GetNamespaceRequest: MessageTypeDefinition<_loam_remote_v1_GetNamespaceRequest, _loam_remote_v1_GetNamespaceRequest__Output>
        GetOrgRequest: MessageTypeDefinition<_loam_remote_v1_GetOrgRequest, _loam_remote_v1_GetOrgRequest__Output>
        GetPointerRequest: MessageTypeDefinition<_loam_remote_v1_GetPointerRequest, _loam_remote_v1_GetPointerRequest__Output>
        GetStreamRequest: MessageTypeDefinition<_loam_remote_v1_GetStreamRequest, _loam_remote_v1_GetStreamRequest__Output>
        HeartbeatRequest: MessageTypeDefinition<_loam_remote_v1_HeartbeatRequest, _loam_remote_v1_HeartbeatRequest__Output>
        IndexEntry: MessageTypeDefinition<_loam_remote_v1_IndexEntry, _loam_remote_v1_IndexEntry__Output>
        IndexEntryKind: EnumTypeDefinition
        JanitorRequest: MessageTypeDefinition<_loam_remote_v1_JanitorRequest, _loam_remote_v1_JanitorRequest__Output>
        JanitorResult: MessageTypeDefinition<_loam_remote_v1_JanitorResult, _loam_remote_v1_JanitorResult__Output>
        JobPositionRequest: MessageTypeDefinition<_loam_remote_v1_JobPositionRequest, _loam_remote_v1_JobPositionRequest__Output>
        JobPositionValue: MessageTypeDefinition<_loam_remote_v1_JobPositionValue, _loam_remote_v1_JobPositionValue__Output>
        KeyTouch: MessageTypeDefinition<_loam_remote_v1_KeyTouch, _loam_remote_v1_KeyTouch__Output>
        Lease: MessageTypeDefinition<_loam_remote_v1_Lease, _loam_remote_v1_Lease__Output>
        LeaseScope: MessageTypeDefinition<_loam_remote_v1_LeaseScope, _loam_remote_v1_LeaseScope__Output>
        LeaveRequest: MessageTypeDefinition<_loam_remote_v1_LeaveRequest, _loam_remote_v1_LeaveRequest__Output>
        ListBindingsRequest: MessageTypeDefinition<_loam_remote_v1_ListBindingsRequest, _loam_remote_v1_ListBindingsRequest__Output>
        ListCollectionsRequest: MessageTypeDefinition<_loam_remote_v1_ListCollectionsRequest, _loam_remote_v1_ListCollectionsRequest__Output>
        ListErasuresRequest: MessageTypeDefinition<_loam_remote_v1_ListErasuresRequest, _loam_remote_v1_ListErasuresRequest__Output>
        ListKeysRequest: MessageTypeDefinition<_loam_remote_v1_ListKeysRequest, _loam_remote_v1_ListKeysRequest__Output>
        ListNamespacesRequest: MessageTypeDefinition<_loam_remote_v1_ListNamespacesRequest, _loam_remote_v1_ListNamespacesRequest__Output>
        ListOrgsRequest: MessageTypeDefinition<_loam_remote_v1_ListOrgsRequest, _loam_remote_v1_ListOrgsRequest__Output>
        ListStreamsRequest: MessageTypeDefinition<_loam_remote_v1_ListStreamsRequest, _loam_remote_v1_ListStreamsRequest__Output>
        ListTagsRequest: MessageTypeDefinition<_loam_remote_v1_ListTagsRequest, _loam_remote_v1_ListTagsRequest__Output>
        Member: MessageTypeDefinition<_loam_remote_v1_Member, _loam_remote_v1_Member__Output>
        MemberList: MessageTypeDefinition<_loam_remote_v1_MemberList, _loam_remote_v1_MemberList__Output>
        MembersRequest: MessageTypeDefinition<_loam_remote_v1_MembersRequest, _loam_remote_v1_MembersRequest__Output>
        MetaStore: SubtypeConstructor<typeof grpc.Client, _loam_remote_v1_MetaStoreClient> & { service: _loam_remote_v1_MetaStoreDefinition }
        Namespace: MessageTypeDefinition<_loam_remote_v1_Namespace, _loam_remote_v1_Namespace__Output>
        NamespaceByNameRequest: MessageTypeDefinition<_loam_remote_v1_NamespaceByNameRequest, _loam_remote_v1_NamespaceByNameRequest__Output>
        NamespacePage: MessageTypeDefinition<_loam_remote_v1_NamespacePage, _loam_remote_v1_NamespacePage__Output>
        NotClaimedReason: EnumTypeDefinition
        ObjectRef: MessageTypeDefinition<_loam_remote_v1_ObjectRef, _loam_remote_v1_ObjectRef__Output>
        ObjectRefRequest: MessageTypeDefinition<_loam_remote_v1_ObjectRefRequest, _loam_remote_v1_ObjectRefRequest__Output>
        OptionalLease: MessageTypeDefinition<_loam_remote_v1_OptionalLease, _loam_remote_v1_OptionalLease__Output>
        OptionalObjectRef: MessageTypeDefinition<_loam_remote_v1_OptionalObjectRef, _loam_remote_v1_OptionalObjectRef__Output>
        OptionalPointer: MessageTypeDefinition<_loam_remote_v1_OptionalPointer, _loam_remote_v1_OptionalPointer__Output>
        OptionalPointerVersion: MessageTypeDefinition<_loam_remote_v1_OptionalPointerVersion, _loam_remote_v1_OptionalPointerVersion__Output>
        Org: MessageTypeDefinition<_loam_remote_v1_Org, _loam_remote_v1_Org__Output>
        OrgPage: MessageTypeDefinition<_loam_remote_v1_OrgPage, _loam_remote_v1_OrgPage__Output>
        OutboxEntry: MessageTypeDefinition<_loam_remote_v1_OutboxEntry, _loam_remote_v1_OutboxEntry__Output>
        OutboxEntryList: MessageTypeDefinition<_loam_remote_v1_OutboxEntryList, _loam_remote_v1_OutboxEntryList__Output>
        OutboxRequest: MessageTypeDefinition<_loam_remote_v1_OutboxRequest, _loam_remote_v1_OutboxRequest__Output>
        PageRequest: MessageTypeDefinition<_loam_remote_v1_PageRequest, _loam_remote_v1_PageRequest__Output>
        PartitionHead: MessageTypeDefinition<_loam_remote_v1_PartitionHead, _loam_remote_v1_PartitionHead__Output>
        PartitionIndex: MessageTypeDefinition<_loam_remote_v1_PartitionIndex, _loam_remote_v1_PartitionIndex__Output>
        PartitionIndexRequest: MessageTypeDefinition<_loam_remote_v1_PartitionIndexRequest, _loam_remote_v1_PartitionIndexRequest__Output>
        Pointer: MessageTypeDefinition<_loam_remote_v1_Pointer, _loam_remote_v1_Pointer__Output>
        PointerVersion: MessageTypeDefinition<_loam_remote_v1_PointerVersion, _loam_remote_v1_PointerVersion__Output>
        PointerVersionRequest: MessageTypeDefinition<_loam_remote_v1_PointerVersionRequest, _loam_remote_v1_PointerVersionRequest__Output>
        PutErasureKeyRequest: MessageTypeDefinition<_loam_remote_v1_PutErasureKeyRequest, _loam_remote_v1_PutErasureKeyRequest__Output>
        PutUsageRequest: MessageTypeDefinition<_loam_remote_v1_PutUsageRequest, _loam_remote_v1_PutUsageRequest__Output>
        PutUsageRow: MessageTypeDefinition<_loam_remote_v1_PutUsageRow, _loam_remote_v1_PutUsageRow__Output>
        QuotaName: EnumTypeDefinition
        QuotaOverride: MessageTypeDefinition<_loam_remote_v1_QuotaOverride, _loam_remote_v1_QuotaOverride__Output>
        QuotaOverrideList: MessageTypeDefinition<_loam_remote_v1_QuotaOverrideList, _loam_remote_v1_QuotaOverrideList__Output>
        QuotasRequest: MessageTypeDefinition<_loam_remote_v1_QuotasRequest, _loam_remote_v1_QuotasRequest__Output>
        ReadOptions: MessageTypeDefinition<_loam_remote_v1_ReadOptions, _loam_remote_v1_ReadOptions__Output>
        ReleaseClaimRequest: MessageTypeDefinition<_loam_remote_v1_ReleaseClaimRequest, _loam_remote_v1_ReleaseClaimRequest__Output>
        ReleaseLeaseRequest: MessageTypeDefinition<_loam_remote_v1_ReleaseLeaseRequest, _loam_remote_v1_ReleaseLeaseRequest__Output>
        RenewLeaseRequest: MessageTypeDefinition<_loam_remote_v1_RenewLeaseRequest, _loam_remote_v1_RenewLeaseRequest__Output>
        Retention: MessageTypeDefinition<_loam_remote_v1_Retention, _loam_remote_v1_Retention__Output>
        RetiredWalObject: MessageTypeDefinition<_loam_remote_v1_RetiredWalObject, _loam_remote_v1_RetiredWalObject__Output>
        RetiredWalObjectPage: MessageTypeDefinition<_loam_remote_v1_RetiredWalObjectPage, _loam_remote_v1_RetiredWalObjectPage__Output>
        RetiredWalObjectsRequest: MessageTypeDefinition<_loam_remote_v1_RetiredWalObjectsRequest, _loam_remote_v1_RetiredWalObjectsRequest__Output>
        RevokeKeyRequest: MessageTypeDefinition<_loam_remote_v1_RevokeKeyRequest, _loam_remote_v1_RevokeKeyRequest__Output>
        RewriteTagRequest: MessageTypeDefinition<_loam_remote_v1_RewriteTagRequest, _loam_remote_v1_RewriteTagRequest__Output>
        Role: EnumTypeDefinition
        RoleBinding: MessageTypeDefinition<_loam_remote_v1_RoleBinding, _loam_remote_v1_RoleBinding__Output>
        RoleBindingList: MessageTypeDefinition<_loam_remote_v1_RoleBindingList, _loam_remote_v1_RoleBindingList__Output>
        RoleBindingPage: MessageTypeDefinition<_loam_remote_v1_RoleBindingPage, _loam_remote_v1_RoleBindingPage__Output>
        SaveJobPositionRequest: MessageTypeDefinition<_loam_remote_v1_SaveJobPositionRequest, _loam_remote_v1_SaveJobPositionRequest__Output>
        SegmentReferencedRequest: MessageTypeDefinition<_loam_remote_v1_SegmentReferencedRequest, _loam_remote_v1_SegmentReferencedRequest__Output>
        SegmentSwap: MessageTypeDefinition<_loam_remote_v1_SegmentSwap, _loam_remote_v1_SegmentSwap__Output>
        SetQuotaRequest: MessageTypeDefinition<_loam_remote_v1_SetQuotaRequest, _loam_remote_v1_SetQuotaRequest__Output>
        SetRetentionRequest: MessageTypeDefinition<_loam_remote_v1_SetRetentionRequest, _loam_remote_v1_SetRetentionRequest__Output>
        SettleHeadRequest: MessageTypeDefinition<_loam_remote_v1_SettleHeadRequest, _loam_remote_v1_SettleHeadRequest__Output>
        Stream: MessageTypeDefinition<_loam_remote_v1_Stream, _loam_remote_v1_Stream__Output>
        StreamPage: MessageTypeDefinition<_loam_remote_v1_StreamPage, _loam_remote_v1_StreamPage__Output>
        StreamState: MessageTypeDefinition<_loam_remote_v1_StreamState, _loam_remote_v1_StreamState__Output>
        StreamStateRequest: MessageTypeDefinition<_loam_remote_v1_StreamStateRequest, _loam_remote_v1_StreamStateRequest__Output>
        SwapSegmentRequest: MessageTypeDefinition<_loam_remote_v1_SwapSegmentRequest, _loam_remote_v1_SwapSegmentRequest__Output>
        SwapSegmentResult: MessageTypeDefinition<_loam_remote_v1_SwapSegmentResult, _loam_remote_v1_SwapSegmentResult__Output>
        Tag: MessageTypeDefinition<_loam_remote_v1_Tag, _loam_remote_v1_Tag__Output>
        TagPage: MessageTypeDefinition<_loam_remote_v1_TagPage, _loam_remote_v1_TagPage__Output>
        TouchKeysRequest: MessageTypeDefinition<_loam_remote_v1_TouchKeysRequest, _loam_remote_v1_TouchKeysRequest__Output>
        Transactions: EnumTypeDefinition
        TrimPartitionRequest: MessageTypeDefinition<_loam_remote_v1_TrimPartitionRequest, _loam_remote_v1_TrimPartitionRequest__Output>
        UpdateAliasesRequest: MessageTypeDefinition<_loam_remote_v1_UpdateAliasesRequest, _loam_remote_v1_UpdateAliasesRequest__Output>
        UpdateCollectionSchemaRequest: MessageTypeDefinition<_loam_remote_v1_UpdateCollectionSchemaRequest, _loam_remote_v1_UpdateCollectionSchemaRequest__Output>
        UpdateErasureRequest: MessageTypeDefinition<_loam_remote_v1_UpdateErasureRequest, _loam_remote_v1_UpdateErasureRequest__Output>
        UsageDelta: MessageTypeDefinition<_loam_remote_v1_UsageDelta, _loam_remote_v1_UsageDelta__Output>
        UsageRequest: MessageTypeDefinition<_loam_remote_v1_UsageRequest, _loam_remote_v1_UsageRequest__Output>
        UsageRollup: MessageTypeDefinition<_loam_remote_v1_UsageRollup, _loam_remote_v1_UsageRollup__Output>
        UsageRollupList: MessageTypeDefinition<_loam_remote_v1_UsageRollupList, _loam_remote_v1_UsageRollupList__Output>
        VersionValue: MessageTypeDefinition<_loam_remote_v1_VersionValue, _loam_remote_v1_VersionValue__Output>
        WalChunk: MessageTypeDefinition<_loam_remote_v1_WalChunk, _loam_remote_v1_WalChunk__Output>
        WalCommit: MessageTypeDefinition<_loam_remote_v1_WalCommit, _loam_remote_v1_WalCommit__Output>
        WalCommitResult: MessageTypeDefinition<_loam_remote_v1_WalCommitResult, _loam_remote_v1_WalCommitResult__Output>
        WatchChangesRequest: MessageTypeDefinition<_loam_remote_v1_WatchChangesRequest, _loam_remote_v1_WatchChangesRequest__Output>
        WatchScope: MessageTypeDefinition<_loam_remote_v1_WatchScope, _loam_remote_v1_WatchScope__Output>
        WriteContext: MessageTypeDefinition<_loam_remote_v1_WriteContext, _loam_remote_v1_WriteContext__Output>
      }
    }
  }
}

