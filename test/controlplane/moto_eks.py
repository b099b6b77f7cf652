#!/usr/bin/env python3
"""moto as the AWS account of an EKS cluster, for the end-to-end tests (test glue).

Runs moto's server on 127.0.0.1 (a free port unless --port) in this process, after giving the
account what an EKS cluster named --cluster has and moto lacks:
  - AWS's public SSM parameters of the EKS optimized AL2023 AMIs (the ones `alias: al2023@latest`
    reads) for each --kubernetes-version. moto refuses PutParameter under /aws/ ("reserved
    parameter name"), and ships defaults only for ami-amazon-linux-latest and the ECS AMIs, so
    they are written straight into moto's SSM backend; they name images moto already has.
  - a VPC with one subnet per zone and a security group, tagged karpenter.sh/discovery=CLUSTER;
  - the instance profile --instance-profile;
  - the SQS queue --queue (Karpenter's interruption queue).
Prints "moto ready on PORT" once all of that exists, then serves until killed.
"""
import argparse
import signal
import sys
import threading

import boto3
from moto.moto_server.threaded_moto_server import ThreadedMotoServer
from moto.ssm.models import Parameter, ssm_backends

ACCOUNT = "123456789012"  # moto's default account (credentials "testing")
REGION = "us-east-1"
ZONES = ["us-east-1a", "us-east-1b", "us-east-1c"]
# Images of moto's default set (moto/ec2/resources/amis.json.gz), one per architecture.
IMAGES = {"x86_64": "ami-760aaa0f", "arm64": "ami-0e9271c829888680e"}


def seed_eks_ami_parameters(versions):
    parameters = ssm_backends[ACCOUNT][REGION]._parameters
    for version in versions:
        for arch, image in IMAGES.items():
            name = (f"/aws/service/eks/optimized-ami/{version}/amazon-linux-2023/{arch}"
                    "/standard/recommended/image_id")
            parameters[name].append(
                Parameter(account_id=ACCOUNT, name=name, value=image, parameter_type="String",
                          description=None, allowed_pattern=None, keyid=None,
                          last_modified_date=0, version=1, data_type="text"))


SERVICE_CIDR = "172.20.0.0/16"


def seed_account(url, cluster, node_role, queue):
    session = boto3.Session(aws_access_key_id="testing", aws_secret_access_key="testing",
                            region_name=REGION)
    ec2 = session.client("ec2", endpoint_url=url)
    discovery = [{"Key": "karpenter.sh/discovery", "Value": cluster}]
    vpc = ec2.create_vpc(CidrBlock="10.0.0.0/16")["Vpc"]["VpcId"]
    for index, zone in enumerate(ZONES):
        ec2.create_subnet(
            VpcId=vpc, CidrBlock=f"10.0.{index * 32}.0/19", AvailabilityZone=zone,
            TagSpecifications=[{"ResourceType": "subnet", "Tags": discovery}])
    subnets = [subnet["SubnetId"] for subnet in ec2.describe_subnets(
        Filters=[{"Name": "vpc-id", "Values": [vpc]}])["Subnets"]]
    # The EKS cluster the controller describes at start: its endpoint (the test sets no
    # CLUSTER_ENDPOINT) and its service CIDR, which node user data carries.
    session.client("eks", endpoint_url=url).create_cluster(
        name=cluster, roleArn="arn:aws:iam::123456789012:role/eks-cluster",
        resourcesVpcConfig={"subnetIds": subnets},
        kubernetesNetworkConfig={"serviceIpv4Cidr": SERVICE_CIDR})
    ec2.create_security_group(
        GroupName=f"{cluster}-node", Description="nodes", VpcId=vpc,
        TagSpecifications=[{"ResourceType": "security-group", "Tags": discovery}])
    # The node role the article's EC2NodeClass names; the controller makes its instance profile.
    session.client("iam", endpoint_url=url).create_role(
        RoleName=node_role,
        AssumeRolePolicyDocument='{"Version":"2012-10-17","Statement":[{"Effect":"Allow",'
        '"Principal":{"Service":"ec2.amazonaws.com"},"Action":"sts:AssumeRole"}]}')
    if queue:
        session.client("sqs", endpoint_url=url).create_queue(QueueName=queue)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--cluster", required=True)
    parser.add_argument("--node-role", required=True)
    parser.add_argument("--queue", default="")
    parser.add_argument("--kubernetes-version", action="append", default=[])
    args = parser.parse_args()
    seed_eks_ami_parameters(args.kubernetes_version)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=args.port, verbose=False)
    server.start()
    port = server.get_host_and_port()[1]
    seed_account(f"http://127.0.0.1:{port}", args.cluster, args.node_role, args.queue)
    print(f"moto ready on {port}", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    while not stop.wait(0.5):  # a wait without timeout would not see the signal
        pass
    server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
